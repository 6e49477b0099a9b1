#ifndef CFILESYSTEM_H
#define CFILESYSTEM_H

#include <openssl/evp.h>

/// renameat2(..., RENAME_NOREPLACE): glibc declares it only under _GNU_SOURCE, which Swift's Glibc module lacks.
int CFileSystem_renameNoReplace(int fromDirectory, const char *from, int toDirectory, const char *to);
/// sync_file_range(SYNC_FILE_RANGE_WRITE): starts writeback of a range without waiting for it.
int CFileSystem_startWriteback(int descriptor, long long offset, long long length);

/// prctl(PR_SET_PDEATHSIG, SIGKILL): prctl is variadic, and Swift imports no variadic C functions.
int CFileSystem_dieWithParent(void);

#endif
