#ifndef CFILESYSTEM_H
#define CFILESYSTEM_H

#include <dirent.h>
#include <openssl/evp.h>
#include <spawn.h>

/// renameat2(..., RENAME_NOREPLACE): glibc declares it only under _GNU_SOURCE, which Swift's Glibc module lacks.
int CFileSystem_renameNoReplace(int fromDirectory, const char *from, int toDirectory, const char *to);
/// sync_file_range(SYNC_FILE_RANGE_WRITE): starts writeback of a range without waiting for it.
int CFileSystem_startWriteback(int descriptor, long long offset, long long length);

/// prctl(PR_SET_PDEATHSIG, SIGKILL): prctl is variadic, and Swift imports no variadic C functions.
int CFileSystem_dieWithParent(void);

/// pipe2(fds, O_CLOEXEC): glibc declares pipe2 only under _GNU_SOURCE.
int CFileSystem_pipe(int descriptors[2]);

/// posix_spawn_file_actions_addclosefrom_np(actions, from): Swift's Glibc module does not import it (glibc >= 2.34).
int CFileSystem_spawnClosesFrom(posix_spawn_file_actions_t *actions, int from);

/// pidfd_open(pid, 0): a descriptor that polls readable once the process has ended. glibc 2.36 declares no wrapper
/// Swift's Glibc module imports, and syscall() is variadic.
int CFileSystem_pidfdOpen(int pid);

/// entry->d_name where it lies: Swift imports d_name as a 256-byte tuple and reads all of it, past the end of a
/// record near the end of readdir's buffer (AddressSanitizer: heap-buffer-overflow in Directory.entries).
const char *CFileSystem_direntName(const struct dirent *entry);

/// gettid(): glibc declares it only under _GNU_SOURCE.
int CFileSystem_threadID(void);

/// Turns CAP_SYS_NICE on or off in the calling thread's effective capabilities (capget/capset, which glibc does not
/// wrap) and says in *wasOn whether it was on; it stays permitted, so it can be turned back on. 0, or -1 and errno.
int CFileSystem_setSysNiceEffective(int on, int *wasOn);

/// Takes CAP_SYS_NICE out of the calling thread's effective, permitted and inheritable capabilities for good: threads
/// it starts later inherit the sets without it. 0, or -1 and errno.
int CFileSystem_dropSysNice(void);

#endif
