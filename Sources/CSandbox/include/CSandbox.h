#ifndef CSANDBOX_H
#define CSANDBOX_H

#include <stdint.h>
// libseccomp: Sandbox/SeccompFilter.swift calls it directly (seccomp_init, seccomp_rule_add_array, seccomp_load).
#include <seccomp.h>

/// landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION): glibc 2.36 wraps no Landlock call and
/// syscall() is variadic. The kernel's Landlock ABI version, or -1 and errno (ENOSYS, EOPNOTSUPP when disabled).
int CSandbox_landlockABI(void);

/// landlock_create_ruleset for the rights the domain handles. Debian 12's <linux/landlock.h> (Linux 6.1) knows only
/// the file-system field, so the attribute struct is declared here, its size following `abi` (net rights from ABI 4,
/// scopes from ABI 6). The ruleset descriptor, or -1 and errno.
int CSandbox_landlockCreateRuleset(uint64_t fileSystem, uint64_t network, uint64_t scoped, int abi);

/// open(path, O_PATH | O_CLOEXEC): a handle on a path that reads nothing, for Landlock rules and bind mounts;
/// glibc defines O_PATH only under _GNU_SOURCE. The descriptor, or -1 and errno.
int CSandbox_openPath(const char *path);

/// landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, {allowed, parent}, 0). 0, or -1 and errno.
int CSandbox_landlockAllowBeneath(int ruleset, int parent, uint64_t allowed);

/// landlock_restrict_self(ruleset, 0): the calling thread and every thread and process it starts later. 0 or -1.
int CSandbox_landlockRestrictSelf(int ruleset);

/// prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0): prctl is variadic, and Swift imports no variadic C function. 0 or -1.
int CSandbox_setNoNewPrivileges(void);

/// prctl(PR_GET_NO_NEW_PRIVS): 1, 0, or -1 and errno.
int CSandbox_noNewPrivileges(void);

/// prctl(PR_GET_SECCOMP): 0 (none), 2 (a filter), or -1 and errno (EINVAL without CONFIG_SECCOMP).
int CSandbox_seccompMode(void);

/// SCMP_ACT_ERRNO(code): a macro.
uint32_t CSandbox_actionErrno(int code);

/// prctl(PR_CAPBSET_DROP, capability): takes it out of the bounding set (needs CAP_SETPCAP). 0 or -1.
int CSandbox_dropBoundingCapability(int capability);

/// capset with empty effective, permitted and inheritable sets (glibc wraps neither capget nor capset); the
/// ambient set empties with the permitted one. Always allowed: a process may give up what it has. 0 or -1.
int CSandbox_clearCapabilities(void);

/// The namespaces a jail needs, and unshare(2), which glibc declares only under _GNU_SOURCE.
extern const int CSandbox_CLONE_NEWUSER;
extern const int CSandbox_CLONE_NEWNS;
extern const int CSandbox_CLONE_NEWNET;
extern const int CSandbox_CLONE_NEWIPC;
extern const int CSandbox_CLONE_NEWUTS;
extern const int CSandbox_CLONE_NEWPID;
extern const int CSandbox_CLONE_NEWCGROUP;
int CSandbox_unshare(int flags);

/// mount(2) and umount2(2): <sys/mount.h> is not part of Swift's Glibc module. The flags are mount(2)'s MS_*.
extern const unsigned long CSandbox_MS_RDONLY;
extern const unsigned long CSandbox_MS_NOSUID;
extern const unsigned long CSandbox_MS_NODEV;
extern const unsigned long CSandbox_MS_NOEXEC;
extern const unsigned long CSandbox_MS_NOATIME;
extern const unsigned long CSandbox_MS_NODIRATIME;
extern const unsigned long CSandbox_MS_RELATIME;
extern const unsigned long CSandbox_MS_STRICTATIME;
extern const unsigned long CSandbox_MS_BIND;
extern const unsigned long CSandbox_MS_REC;
extern const unsigned long CSandbox_MS_PRIVATE;
extern const unsigned long CSandbox_MS_REMOUNT;
int CSandbox_mount(const char *source, const char *target, const char *type, unsigned long flags, const char *data);
int CSandbox_detach(const char *target);

/// pivot_root(2): glibc has no wrapper. 0 or -1.
int CSandbox_pivotRoot(const char *newRoot, const char *putOld);

/// statvfs(path)->f_flag as mount(2) flags (MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC and the atime ones, with
/// MS_STRICTATIME where neither noatime nor relatime is set): a bind
/// mount inside a user namespace must keep the flags its source mount has locked. 0, or -1 and errno.
int CSandbox_mountFlags(const char *path, unsigned long *flags);

#endif
