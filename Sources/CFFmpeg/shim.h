#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/channel_layout.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/log.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/sha.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <stdarg.h>
#include <stdio.h>

/// AVERROR(e) is a function-like macro: Swift imports no macros with arguments.
static inline int CFFmpeg_AVERROR(int e) { return AVERROR(e); }

/// AVERROR_EOF is built with FFERRTAG, a macro expression Swift cannot evaluate.
static inline int CFFmpeg_AVERROR_EOF(void) { return AVERROR_EOF; }

/// AVERROR(EAGAIN), named because every send/receive loop tests it.
static inline int CFFmpeg_AVERROR_EAGAIN(void) { return AVERROR(EAGAIN); }

/// AV_NOPTS_VALUE is a cast expression Swift does not import.
static inline int64_t CFFmpeg_NOPTS_VALUE(void) { return AV_NOPTS_VALUE; }

/// av_err2str is a macro around a compound-literal buffer; write into the caller's buffer instead.
static inline void CFFmpeg_err2str(int code, char *buffer, size_t size) {
    av_make_error_string(buffer, size, code);
}

/// av_log_set_callback needs a C function pointer; this one drops every message, whatever its level.
static inline void CFFmpeg_quiet_log_callback(void *avcl, int level, const char *fmt, va_list vl) {
    (void)avcl; (void)level; (void)fmt; (void)vl;
}

/// Silence libav's own stderr logging; Reel reports errors itself with the failing call named.
static inline void CFFmpeg_silence_logging(void) { av_log_set_callback(CFFmpeg_quiet_log_callback); }

/// AVFrame.data and linesize are fixed C arrays, imported as tuples; these index them.
static inline uint8_t *CFFmpeg_frame_plane(const AVFrame *frame, int plane) { return frame->data[plane]; }
static inline int CFFmpeg_frame_linesize(const AVFrame *frame, int plane) { return frame->linesize[plane]; }

/// Denies every nested open (HLS segments, DASH BaseURLs, mov drefs): an upload is one file and nothing else.
static int CFFmpeg_deny_io_open(struct AVFormatContext *s, AVIOContext **pb, const char *url, int flags,
                                AVDictionary **options) {
    (void)s; (void)pb; (void)url; (void)flags; (void)options;
    return AVERROR(EPERM);
}

/// io_open is a C function-pointer field; Swift cannot assign a C function to it directly.
static inline void CFFmpeg_forbid_nested_opens(AVFormatContext *ctx) { ctx->io_open = CFFmpeg_deny_io_open; }

/// The display matrix side data is an int32_t[9] behind a uint8_t pointer.
static inline double CFFmpeg_stream_rotation(const AVStream *st, int *found) {
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (!data || size < 9 * sizeof(int32_t)) { *found = 0; return 0; }
    *found = 1;
    return av_display_rotation_get((const int32_t *)data);
}

/// Stream side data is a byte buffer of a C struct whose layout Swift cannot check; these copy the HDR ones out.
static inline int CFFmpeg_stream_mastering(const AVStream *st, AVMasteringDisplayMetadata *out) {
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(st, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, &size);
    if (!data || size < sizeof(AVMasteringDisplayMetadata)) return 0;
    *out = *(const AVMasteringDisplayMetadata *)data;
    return 1;
}
static inline int CFFmpeg_stream_content_light(const AVStream *st, AVContentLightMetadata *out) {
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(st, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, &size);
    if (!data || size < sizeof(AVContentLightMetadata)) return 0;
    *out = *(const AVContentLightMetadata *)data;
    return 1;
}
static inline int CFFmpeg_stream_dovi(const AVStream *st, AVDOVIDecoderConfigurationRecord *out) {
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(st, AV_PKT_DATA_DOVI_CONF, &size);
    if (!data || size < sizeof(AVDOVIDecoderConfigurationRecord)) return 0;
    *out = *(const AVDOVIDecoderConfigurationRecord *)data;
    return 1;
}

#endif
