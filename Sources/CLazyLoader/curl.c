// libcurl on first use. Foundation's URLSession (linked statically into the release binary) calls libcurl, which
// brings about 30 more shared libraries (GnuTLS, Kerberos, LDAP, SSH, RTMP, ...) into every `reel` process, though
// only `reel upload` and `reel hls-check URL` use HTTP: about 10 ms of dynamic linking for each chat image
// `reel webp` converts. Defining the functions Foundation calls here, as trampolines, keeps libcurl out until then.

#define CURL_DISABLE_TYPECHECK 1  // the type-checking macros would rename curl_easy_setopt and friends
#include <curl/curl.h>
#include <stdarg.h>

#include "lazy.h"

static struct CLazyLoader_Library curl = {"libcurl.so.4", 0};

CLAZY_VOID_FUNCTION(curl, curl_easy_cleanup, (CURL *handle), (handle))
CLAZY_FUNCTION(curl, CURL *, curl_easy_init, (void), ())
CLAZY_FUNCTION(curl, CURLcode, curl_easy_pause, (CURL *handle, int bitmask), (handle, bitmask))
CLAZY_FUNCTION(curl, const char *, curl_easy_strerror, (CURLcode code), (code))
CLAZY_VOID_FUNCTION(curl, curl_free, (void *pointer), (pointer))
CLAZY_FUNCTION(curl, CURLcode, curl_global_init, (long flags), (flags))
CLAZY_FUNCTION(curl, CURLMcode, curl_multi_add_handle, (CURLM *multi, CURL *handle), (multi, handle))
CLAZY_FUNCTION(curl, CURLMcode, curl_multi_assign, (CURLM *multi, curl_socket_t socket, void *pointer), (multi, socket, pointer))
CLAZY_FUNCTION(curl, CURLMcode, curl_multi_cleanup, (CURLM *multi), (multi))
CLAZY_FUNCTION(curl, CURLMsg *, curl_multi_info_read, (CURLM *multi, int *queued), (multi, queued))
CLAZY_FUNCTION(curl, CURLM *, curl_multi_init, (void), ())
CLAZY_FUNCTION(curl, CURLMcode, curl_multi_remove_handle, (CURLM *multi, CURL *handle), (multi, handle))
CLAZY_FUNCTION(curl, CURLMcode, curl_multi_socket_action, (CURLM *multi, curl_socket_t socket, int mask, int *running),
               (multi, socket, mask, running))
CLAZY_FUNCTION(curl, struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *data), (list, data))
CLAZY_VOID_FUNCTION(curl, curl_slist_free_all, (struct curl_slist *list), (list))
CLAZY_FUNCTION(curl, CURLU *, curl_url, (void), ())
CLAZY_FUNCTION(curl, CURLUcode, curl_url_get, (CURLU *handle, CURLUPart what, char **part, unsigned int flags),
               (handle, what, part, flags))
CLAZY_FUNCTION(curl, CURLUcode, curl_url_set, (CURLU *handle, CURLUPart what, const char *part, unsigned int flags),
               (handle, what, part, flags))
CLAZY_FUNCTION(curl, char *, curl_version, (void), ())
CLAZY_FUNCTION(curl, curl_version_info_data *, curl_version_info, (CURLversion age), (age))

// The option setters take one more argument of a type the option decides: a long, a curl_off_t, an object or a
// function pointer. On x86-64 and arm64 Linux each travels in one 64-bit integer register, so it is read as a
// 64-bit integer and passed on as one, through the real variadic prototype.
#define CLAZY_VARIADIC_FUNCTION(library, result, name, handleType, optionType)                   \
    result name(handleType handle, optionType option, ...) {                                     \
        static void *slot;                                                                       \
        void *real = __atomic_load_n(&slot, __ATOMIC_ACQUIRE);                                   \
        if (!real) real = CLazyLoader_resolve(&library, #name, &slot);                           \
        va_list arguments;                                                                       \
        va_start(arguments, option);                                                             \
        long long value = va_arg(arguments, long long);                                          \
        va_end(arguments);                                                                       \
        return ((result (*)(handleType, optionType, ...))real)(handle, option, value);          \
    }

_Static_assert(sizeof(long long) == sizeof(void *) && sizeof(long long) == sizeof(curl_off_t) && sizeof(long) == 8,
               "each option value must fit one 64-bit argument register");
CLAZY_VARIADIC_FUNCTION(curl, CURLcode, curl_easy_setopt, CURL *, CURLoption)
CLAZY_VARIADIC_FUNCTION(curl, CURLcode, curl_easy_getinfo, CURL *, CURLINFO)
CLAZY_VARIADIC_FUNCTION(curl, CURLMcode, curl_multi_setopt, CURLM *, CURLMoption)
