#ifndef CWEBP_SHIM_H
#define CWEBP_SHIM_H
#include <webp/encode.h>
#include <webp/decode.h>
#include <webp/mux.h>

/// WebPConfigInit is a static inline around WebPConfigInitInternal with a version macro; keep one entry point.
static inline int CWebP_ConfigPreset(WebPConfig *config, WebPPreset preset, float quality) {
    return WebPConfigPreset(config, preset, quality);
}
/// WebPPictureInit wraps WebPPictureInitInternal with WEBP_ENCODER_ABI_VERSION.
static inline int CWebP_PictureInit(WebPPicture *picture) { return WebPPictureInit(picture); }
/// WebPInitDecoderConfig wraps WebPInitDecoderConfigInternal with WEBP_DECODER_ABI_VERSION.
static inline int CWebP_InitDecoderConfig(WebPDecoderConfig *config) { return WebPInitDecoderConfig(config); }
/// WebPMuxNew wraps WebPNewInternal with WEBP_MUX_ABI_VERSION.
static inline WebPMux *CWebP_MuxNew(void) { return WebPMuxNew(); }
#endif
