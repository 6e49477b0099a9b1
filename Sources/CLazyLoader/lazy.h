#ifndef CLAZYLOADER_LAZY_H
#define CLAZYLOADER_LAZY_H

// The machinery shared by ffmpeg.c and heif.c. Each trampoline repeats the prototype from the real header, which
// its file includes, so a mismatch is a compile error; a function missing from the trampolines is a link error.
// A library or symbol missing at run time aborts with its name and dlerror(): that is a broken installation, not
// something an input file can cause.

/// A library opened on first use: its soname and, once opened, its handle.
struct CLazyLoader_Library {
    const char *soname;
    void *handle;
};

/// Opens `library` once (RTLD_NOW | RTLD_LOCAL) and looks `name` up in it; stores the address in `slot` for the
/// next call. Threads may race here: dlopen and dlsym are thread-safe and every racer stores the same addresses.
void *CLazyLoader_resolve(struct CLazyLoader_Library *library, const char *name, void **slot);

/// Opens `library` now, if it is not open yet. Aborts with its name and dlerror() if it cannot be opened.
void CLazyLoader_open(struct CLazyLoader_Library *library);

/// Defines `result name parameters` as a jump to the real `name` in `library`.
#define CLAZY_FUNCTION(library, result, name, parameters, arguments)                             \
    result name parameters {                                                                     \
        static void *slot;                                                                       \
        void *real = __atomic_load_n(&slot, __ATOMIC_ACQUIRE);                                   \
        if (!real) real = CLazyLoader_resolve(&library, #name, &slot);                           \
        return ((__typeof__(&name))real) arguments;                                              \
    }

/// The same for functions returning void (C forbids `return` with a void expression).
#define CLAZY_VOID_FUNCTION(library, name, parameters, arguments)                                \
    void name parameters {                                                                       \
        static void *slot;                                                                       \
        void *real = __atomic_load_n(&slot, __ATOMIC_ACQUIRE);                                   \
        if (!real) real = CLazyLoader_resolve(&library, #name, &slot);                           \
        ((__typeof__(&name))real) arguments;                                                     \
    }

#endif
