#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include "CFileSystem.h"

int CFileSystem_renameNoReplace(int fromDirectory, const char *from, int toDirectory, const char *to) {
    return renameat2(fromDirectory, from, toDirectory, to, RENAME_NOREPLACE);
}

int CFileSystem_dieWithParent(void) {
    return prctl(PR_SET_PDEATHSIG, SIGKILL);
}
