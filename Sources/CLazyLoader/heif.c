// libheif on first use, the same way as ffmpeg.c: libheif links x265, aom, dav1d and libde265 (whose static
// initialisers alone cost about 2 ms), which only a HEIF upload needs.

#include <libheif/heif.h>

#include "lazy.h"

_Static_assert((LIBHEIF_NUMERIC_VERSION >> 24) == 1, "libheif 1.x has the soname libheif.so.1");
static struct CLazyLoader_Library heif = {"libheif.so.1", 0};

void CLazyLoader_preloadHeif(void) { CLazyLoader_open(&heif); }

CLAZY_FUNCTION(heif, struct heif_context *, heif_context_alloc, (void), ())
CLAZY_VOID_FUNCTION(heif, heif_context_free, (struct heif_context *context), (context))
CLAZY_FUNCTION(heif, struct heif_error, heif_context_read_from_memory_without_copy,
               (struct heif_context *context, const void *mem, size_t size, const struct heif_reading_options *options),
               (context, mem, size, options))
CLAZY_VOID_FUNCTION(heif, heif_context_set_maximum_image_size_limit, (struct heif_context *ctx, int maximum_width),
                    (ctx, maximum_width))
CLAZY_FUNCTION(heif, struct heif_error, heif_context_get_primary_image_handle,
               (struct heif_context *ctx, struct heif_image_handle **handle), (ctx, handle))
CLAZY_FUNCTION(heif, struct heif_error, heif_context_get_encoder_for_format,
               (struct heif_context *context, enum heif_compression_format format, struct heif_encoder **encoder),
               (context, format, encoder))
CLAZY_FUNCTION(heif, struct heif_error, heif_context_encode_image,
               (struct heif_context *context, const struct heif_image *image, struct heif_encoder *encoder,
                const struct heif_encoding_options *options, struct heif_image_handle **out_image_handle),
               (context, image, encoder, options, out_image_handle))
CLAZY_FUNCTION(heif, struct heif_error, heif_context_write_to_file, (struct heif_context *context, const char *filename),
               (context, filename))
CLAZY_FUNCTION(heif, int, heif_have_encoder_for_format, (enum heif_compression_format format), (format))
CLAZY_VOID_FUNCTION(heif, heif_encoder_release, (struct heif_encoder *encoder), (encoder))
CLAZY_FUNCTION(heif, struct heif_error, heif_encoder_set_lossy_quality, (struct heif_encoder *encoder, int quality),
               (encoder, quality))
CLAZY_FUNCTION(heif, struct heif_encoding_options *, heif_encoding_options_alloc, (), ())
CLAZY_VOID_FUNCTION(heif, heif_encoding_options_free, (struct heif_encoding_options *options), (options))

CLAZY_FUNCTION(heif, struct heif_error, heif_decode_image,
               (const struct heif_image_handle *in_handle, struct heif_image **out_img, enum heif_colorspace colorspace,
                enum heif_chroma chroma, const struct heif_decoding_options *options),
               (in_handle, out_img, colorspace, chroma, options))
CLAZY_FUNCTION(heif, int, heif_image_handle_get_width, (const struct heif_image_handle *handle), (handle))
CLAZY_FUNCTION(heif, int, heif_image_handle_get_height, (const struct heif_image_handle *handle), (handle))
CLAZY_FUNCTION(heif, int, heif_image_handle_has_alpha_channel, (const struct heif_image_handle *handle), (handle))
CLAZY_FUNCTION(heif, int, heif_image_handle_get_luma_bits_per_pixel, (const struct heif_image_handle *handle), (handle))
CLAZY_FUNCTION(heif, int, heif_image_handle_get_chroma_bits_per_pixel, (const struct heif_image_handle *handle), (handle))
CLAZY_FUNCTION(heif, size_t, heif_image_handle_get_raw_color_profile_size, (const struct heif_image_handle *handle), (handle))
CLAZY_FUNCTION(heif, struct heif_error, heif_image_handle_get_raw_color_profile,
               (const struct heif_image_handle *handle, void *out_data), (handle, out_data))
CLAZY_VOID_FUNCTION(heif, heif_image_handle_release, (const struct heif_image_handle *handle), (handle))

CLAZY_FUNCTION(heif, struct heif_error, heif_image_create,
               (int width, int height, enum heif_colorspace colorspace, enum heif_chroma chroma, struct heif_image **out_image),
               (width, height, colorspace, chroma, out_image))
CLAZY_FUNCTION(heif, struct heif_error, heif_image_add_plane,
               (struct heif_image *image, enum heif_channel channel, int width, int height, int bit_depth),
               (image, channel, width, height, bit_depth))
CLAZY_FUNCTION(heif, int, heif_image_get_width, (const struct heif_image *image, enum heif_channel channel), (image, channel))
CLAZY_FUNCTION(heif, int, heif_image_get_height, (const struct heif_image *image, enum heif_channel channel), (image, channel))
CLAZY_FUNCTION(heif, int, heif_image_get_bits_per_pixel, (const struct heif_image *image, enum heif_channel channel),
               (image, channel))
CLAZY_FUNCTION(heif, enum heif_chroma, heif_image_get_chroma_format, (const struct heif_image *image), (image))
CLAZY_FUNCTION(heif, enum heif_colorspace, heif_image_get_colorspace, (const struct heif_image *image), (image))
CLAZY_FUNCTION(heif, uint8_t *, heif_image_get_plane, (struct heif_image *image, enum heif_channel channel, int *out_stride),
               (image, channel, out_stride))
CLAZY_FUNCTION(heif, const uint8_t *, heif_image_get_plane_readonly,
               (const struct heif_image *image, enum heif_channel channel, int *out_stride), (image, channel, out_stride))
CLAZY_VOID_FUNCTION(heif, heif_image_release, (const struct heif_image *image), (image))
