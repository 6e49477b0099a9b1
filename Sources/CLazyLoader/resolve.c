#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "lazy.h"

void *CLazyLoader_resolve(struct CLazyLoader_Library *library, const char *name, void **slot) {
    void *handle = __atomic_load_n(&library->handle, __ATOMIC_ACQUIRE);
    if (!handle) {
        handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char *reason = dlerror();
            fprintf(stderr, "reel: cannot load %s (needed for %s): %s\n", library->soname, name,
                    reason ? reason : "unknown error");
            abort();
        }
        __atomic_store_n(&library->handle, handle, __ATOMIC_RELEASE);
    }
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
