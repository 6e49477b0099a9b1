#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>

/// deflateInit2 is a macro around deflateInit2_ with the version and struct size; keep one entry point.
static inline int CZlib_DeflateInitGzip(z_stream *stream, int level) {
    /* 15 + 16: a 32 KB window with a gzip header and trailer. */
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
#endif
