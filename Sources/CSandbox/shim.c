#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/landlock.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "CSandbox.h"

int CSandbox_landlockABI(void) {
    return (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
}

/// struct landlock_ruleset_attr as of Linux 6.7 (ABI 6); older kernels read a prefix of it.
struct CSandbox_RulesetAttributes {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

int CSandbox_landlockCreateRuleset(uint64_t fileSystem, uint64_t network, uint64_t scoped, int abi) {
    struct CSandbox_RulesetAttributes attributes = {fileSystem, network, scoped};
    size_t size = abi >= 6 ? sizeof(attributes) : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
    return (int)syscall(SYS_landlock_create_ruleset, &attributes, size, 0);
}

int CSandbox_openPath(const char *path) {
    return open(path, O_PATH | O_CLOEXEC);
}

int CSandbox_landlockAllowBeneath(int ruleset, int parent, uint64_t allowed) {
    struct landlock_path_beneath_attr rule = {.allowed_access = allowed, .parent_fd = parent};
    return (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
}

int CSandbox_landlockRestrictSelf(int ruleset) {
    return (int)syscall(SYS_landlock_restrict_self, ruleset, 0);
}

int CSandbox_setNoNewPrivileges(void) {
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

int CSandbox_noNewPrivileges(void) {
    return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
}

int CSandbox_seccompMode(void) {
    return prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
}

uint32_t CSandbox_actionErrno(int code) {
    return SCMP_ACT_ERRNO(code);
}

int CSandbox_dropBoundingCapability(int capability) {
    return prctl(PR_CAPBSET_DROP, capability, 0, 0, 0);
}

int CSandbox_clearCapabilities(void) {
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {{0, 0, 0}, {0, 0, 0}};
    return (int)syscall(SYS_capset, &header, data);
}

const int CSandbox_CLONE_NEWUSER = CLONE_NEWUSER;
const int CSandbox_CLONE_NEWNS = CLONE_NEWNS;
const int CSandbox_CLONE_NEWNET = CLONE_NEWNET;
const int CSandbox_CLONE_NEWIPC = CLONE_NEWIPC;
const int CSandbox_CLONE_NEWUTS = CLONE_NEWUTS;
const int CSandbox_CLONE_NEWPID = CLONE_NEWPID;
const int CSandbox_CLONE_NEWCGROUP = CLONE_NEWCGROUP;

int CSandbox_unshare(int flags) {
    return unshare(flags);
}

const unsigned long CSandbox_MS_RDONLY = MS_RDONLY;
const unsigned long CSandbox_MS_NOSUID = MS_NOSUID;
const unsigned long CSandbox_MS_NODEV = MS_NODEV;
const unsigned long CSandbox_MS_NOEXEC = MS_NOEXEC;
const unsigned long CSandbox_MS_NOATIME = MS_NOATIME;
const unsigned long CSandbox_MS_NODIRATIME = MS_NODIRATIME;
const unsigned long CSandbox_MS_RELATIME = MS_RELATIME;
const unsigned long CSandbox_MS_STRICTATIME = MS_STRICTATIME;
const unsigned long CSandbox_MS_BIND = MS_BIND;
const unsigned long CSandbox_MS_REC = MS_REC;
const unsigned long CSandbox_MS_PRIVATE = MS_PRIVATE;
const unsigned long CSandbox_MS_REMOUNT = MS_REMOUNT;

int CSandbox_mount(const char *source, const char *target, const char *type, unsigned long flags, const char *data) {
    return mount(source, target, type, flags, data);
}

int CSandbox_detach(const char *target) {
    return umount2(target, MNT_DETACH);
}

int CSandbox_pivotRoot(const char *newRoot, const char *putOld) {
    return (int)syscall(SYS_pivot_root, newRoot, putOld);
}

int CSandbox_mountFlags(const char *path, unsigned long *flags) {
    struct statvfs status;
    if (statvfs(path, &status) != 0) return -1;
    static const struct { unsigned long statvfs, mount; } map[] = {
        {ST_RDONLY, MS_RDONLY},     {ST_NOSUID, MS_NOSUID},         {ST_NODEV, MS_NODEV},
        {ST_NOEXEC, MS_NOEXEC},     {ST_NOATIME, MS_NOATIME},       {ST_NODIRATIME, MS_NODIRATIME},
        {ST_RELATIME, MS_RELATIME},
    };
    *flags = 0;
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
        if (status.f_flag & map[i].statvfs) *flags |= map[i].mount;
    }
    // Neither noatime nor relatime: strictatime, which a remount must then ask for by name.
    if (!(status.f_flag & (ST_NOATIME | ST_RELATIME))) *flags |= MS_STRICTATIME;
    return 0;
}
