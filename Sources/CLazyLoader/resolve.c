#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "lazy.h"

void CLazyLoader_open(struct CLazyLoader_Library *library) {
    if (__atomic_load_n(&library->handle, __ATOMIC_ACQUIRE)) return;
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        fprintf(stderr, "reel: cannot load %s: %s\n", library->soname, reason ? reason : "unknown error");
        abort();
    }
    __atomic_store_n(&library->handle, handle, __ATOMIC_RELEASE);
}

void *CLazyLoader_resolve(struct CLazyLoader_Library *library, const char *name, void **slot) {
    CLazyLoader_open(library);
    void *handle = __atomic_load_n(&library->handle, __ATOMIC_ACQUIRE);
    dlerror();
    void *symbol = dlsym(handle, name);
    if (!symbol) {
        const char *reason = dlerror();
        fprintf(stderr, "reel: %s has no %s: %s\n", library->soname, name, reason ? reason : "symbol is NULL");
        abort();
    }
    __atomic_store_n(slot, symbol, __ATOMIC_RELEASE);
    return symbol;
}
