#ifndef CPNG_H
#define CPNG_H

#include <stddef.h>
#include <stdint.h>

// libpng reports every error by longjmp to a setjmp in its caller, which Swift cannot be: these functions are that
// caller, and turn errors into a return value and a message. They decode the default image to 8-bit RGBA with the
// transforms cwebp uses (palette and low bit depths expanded, 16-bit stripped, grey to RGB, tRNS to alpha, no
// gamma correction), so Reel's pixels match what cwebp would encode.

/// One PNG being read from memory.
typedef struct CPNG_Reader CPNG_Reader;

/// What the header says, and the error text when a call fails.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// An alpha channel or a tRNS chunk.
    int has_alpha;
    /// The iCCP profile (decompressed), owned by the reader; NULL without one.
    const uint8_t *icc_profile;
    uint32_t icc_size;
    char message[160];
} CPNG_Info;

/// Reads the header of `size` bytes at `data` (which must outlive the reader); pictures wider or taller than
/// `max_side` are refused. NULL on failure, with `info->message` set.
CPNG_Reader *CPNG_open(const uint8_t *data, size_t size, uint32_t max_side, CPNG_Info *info);

/// Decodes every row into `rgba` (`height` rows of `stride` bytes, `stride` >= 4 * width). 0 on success; -1 with
/// `info->message` set on failure (a truncated or corrupt stream).
int CPNG_decode(CPNG_Reader *reader, uint8_t *rgba, size_t stride, CPNG_Info *info);

void CPNG_close(CPNG_Reader *reader);

#endif
