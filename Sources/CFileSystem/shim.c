#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/capability.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "CFileSystem.h"

int CFileSystem_renameNoReplace(int fromDirectory, const char *from, int toDirectory, const char *to) {
    return renameat2(fromDirectory, from, toDirectory, to, RENAME_NOREPLACE);
}

int CFileSystem_dieWithParent(void) {
    return prctl(PR_SET_PDEATHSIG, SIGKILL);
}

int CFileSystem_startWriteback(int descriptor, long long offset, long long length) {
    return sync_file_range(descriptor, offset, length, SYNC_FILE_RANGE_WRITE);
}

int CFileSystem_pidfdOpen(int pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

int CFileSystem_pipe(int descriptors[2]) {
    return pipe2(descriptors, O_CLOEXEC);
}

int CFileSystem_spawnClosesFrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int CFileSystem_threadID(void) {
    return (int)gettid();
}

int CFileSystem_setSysNiceEffective(int on, int *wasOn) {
    struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &header, data) != 0) return -1;
    const unsigned bit = 1u << CAP_SYS_NICE;
    *wasOn = (data[0].effective & bit) != 0;
    if (on) {
        data[0].effective |= bit;
    } else {
        data[0].effective &= ~bit;
    }
    return (int)syscall(SYS_capset, &header, data);
}

int CFileSystem_dropSysNice(void) {
    struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &header, data) != 0) return -1;
    const unsigned bit = 1u << CAP_SYS_NICE;
    data[0].effective &= ~bit;
    data[0].permitted &= ~bit;
    data[0].inheritable &= ~bit;
    return (int)syscall(SYS_capset, &header, data);
}

const char *CFileSystem_direntName(const struct dirent *entry) {
    return entry->d_name;
}
