#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CPNG.h"

struct CPNG_Reader {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    /// Where the error callback writes its message (the caller's CPNG_Info).
    char *message;
};

static void CPNG_error(png_structp png, png_const_charp text) {
    struct CPNG_Reader *reader = png_get_error_ptr(png);
    snprintf(reader->message, sizeof(((CPNG_Info *)0)->message), "%s", text);
    png_longjmp(png, 1);
}

static void CPNG_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;  // warnings (a bad CRC in an ancillary chunk, ...) do not stop the decode, as in cwebp
}

static void CPNG_read(png_structp png, png_bytep target, png_size_t count) {
    struct CPNG_Reader *reader = png_get_io_ptr(png);
    if (count > reader->size - reader->offset) png_error(png, "the PNG data ends early");
    memcpy(target, reader->data + reader->offset, count);
    reader->offset += count;
}

CPNG_Reader *CPNG_open(const uint8_t *data, size_t size, uint32_t max_side, CPNG_Info *info) {
    memset(info, 0, sizeof(*info));
    struct CPNG_Reader *reader = calloc(1, sizeof(*reader));
    if (!reader) {
        snprintf(info->message, sizeof(info->message), "out of memory");
        return NULL;
    }
    reader->data = data;
    reader->size = size;
    reader->message = info->message;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, CPNG_error, CPNG_warning);
    if (reader->png) reader->info = png_create_info_struct(reader->png);
    if (!reader->png || !reader->info) {
        snprintf(info->message, sizeof(info->message), "png_create_read_struct failed");
        CPNG_close(reader);
        return NULL;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        CPNG_close(reader);
        return NULL;
    }
    png_set_read_fn(reader->png, reader, CPNG_read);
    png_set_user_limits(reader->png, max_side, max_side);
    png_read_info(reader->png, reader->info);

    int color_type = png_get_color_type(reader->png, reader->info);
    int has_trns = png_get_valid(reader->png, reader->info, PNG_INFO_tRNS) != 0;
    info->width = png_get_image_width(reader->png, reader->info);
    info->height = png_get_image_height(reader->png, reader->info);
    info->has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || has_trns;
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 profile_size = 0;
    if (png_get_iCCP(reader->png, reader->info, &name, &compression, &profile, &profile_size) && profile_size > 0) {
        info->icc_profile = profile;
        info->icc_size = profile_size;
    }

    // 8-bit RGBA whatever came in, without gamma correction.
    png_set_expand(reader->png);
    png_set_strip_16(reader->png);
    if (!(color_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(reader->png);
    if (!info->has_alpha) png_set_add_alpha(reader->png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(reader->png);
    png_read_update_info(reader->png, reader->info);
    if (png_get_rowbytes(reader->png, reader->info) != (size_t)info->width * 4) {
        snprintf(info->message, sizeof(info->message), "the decoder would not produce 8-bit RGBA");
        CPNG_close(reader);
        return NULL;
    }
    return reader;
}

int CPNG_decode(CPNG_Reader *reader, uint8_t *rgba, size_t stride, CPNG_Info *info) {
    reader->message = info->message;
    uint32_t height = png_get_image_height(reader->png, reader->info);
    png_bytep *rows = malloc(sizeof(png_bytep) * (height ? height : 1));
    if (!rows) {
        snprintf(info->message, sizeof(info->message), "out of memory");
        return -1;
    }
    for (uint32_t y = 0; y < height; y++) rows[y] = rgba + (size_t)y * stride;
    if (setjmp(png_jmpbuf(reader->png))) {
        free(rows);
        return -1;
    }
    png_read_image(reader->png, rows);
    png_read_end(reader->png, NULL);
    free(rows);
    return 0;
}

void CPNG_close(CPNG_Reader *reader) {
    if (!reader) return;
    if (reader->png) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    free(reader);
}
