// One HEVC still encoded through libheif and everything released as libheif's API says: image, encoder, options
// and context. LeakSanitizer still reports x265_encoder_open's allocation (1,168 bytes with libheif 1.15.1 and
// x265 3.5 on Debian 12), the one seen in ChatImagesTests, whose HEIC fixtures LibHeif encodes the same way
// (Sources/LibHeif/HeifContext.swift). scripts/asan/heif-x265-leak.sh builds and runs it.
#include <libheif/heif.h>
#include <stdio.h>
#include <string.h>

static int check(struct heif_error error, const char *call) {
    if (error.code == heif_error_Ok) return 0;
    fprintf(stderr, "%s: %s\n", call, error.message);
    return 1;
}

int main(void) {
    struct heif_context *context = heif_context_alloc();
    struct heif_image *image = NULL;
    if (check(heif_image_create(64, 48, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image), "create")) return 1;
    if (check(heif_image_add_plane(image, heif_channel_interleaved, 64, 48, 8), "add_plane")) return 1;
    int stride = 0;
    uint8_t *pixels = heif_image_get_plane(image, heif_channel_interleaved, &stride);
    for (int y = 0; y < 48; y++) memset(pixels + y * stride, y * 5, 64 * 3);
    struct heif_encoder *encoder = NULL;
    if (check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder), "get_encoder")) return 1;
    if (check(heif_encoder_set_lossy_quality(encoder, 90), "set_lossy_quality")) return 1;
    struct heif_encoding_options *options = heif_encoding_options_alloc();
    if (check(heif_context_encode_image(context, image, encoder, options, NULL), "encode_image")) return 1;
    heif_encoding_options_free(options);
    heif_encoder_release(encoder);
    heif_image_release(image);
    heif_context_free(context);
    fprintf(stderr, "encoded and released everything\n");
    return 0;
}
