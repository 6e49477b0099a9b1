// Lazy loading of libavformat, libavcodec and libswresample: every function of theirs that Reel calls is defined
// here under its own name, as a trampoline that opens the real library on first use (RTLD_NOW) and jumps to the
// real symbol. The process then starts without those libraries and their ~90 codec dependencies (x265, aom,
// dav1d, ...), about 45 ms of dynamic linking that image jobs do not need.
//
// Each definition repeats the prototype from the real header, which this file includes, so a mismatch is a
// compile error. A function missing here is a link error (the module map no longer links these libraries).
// A library or symbol missing at run time aborts with its name and dlerror(): that is a broken installation,
// not something an input file can cause.

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/macros.h>
#include <libswresample/swresample.h>

#include "CFFmpegLoader.h"

enum CFFmpegLoader_Library { CFFmpegLoader_avcodec, CFFmpegLoader_avformat, CFFmpegLoader_swresample };

/// The sonames of the major versions the headers describe, so the loaded library matches what was compiled against.
static const char *const CFFmpegLoader_sonames[] = {
    [CFFmpegLoader_avcodec] = "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    [CFFmpegLoader_avformat] = "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
    [CFFmpegLoader_swresample] = "libswresample.so." AV_STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR),
};

static void *CFFmpegLoader_handles[3];

/// Opens `library` once and looks `name` up in it; stores the address in `slot` for the next call.
/// Threads may race here: dlopen and dlsym are thread-safe and every racer stores the same addresses.
static void *CFFmpegLoader_resolve(enum CFFmpegLoader_Library library, const char *name, void **slot) {
    const char *soname = CFFmpegLoader_sonames[library];
    void *handle = __atomic_load_n(&CFFmpegLoader_handles[library], __ATOMIC_ACQUIRE);
    if (!handle) {
        handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char *reason = dlerror();
            fprintf(stderr, "reel: cannot load %s (needed for %s): %s\n", soname, name, reason ? reason : "unknown error");
            abort();
        }
        __atomic_store_n(&CFFmpegLoader_handles[library], handle, __ATOMIC_RELEASE);
    }
    dlerror();
    void *symbol = dlsym(handle, name);
    if (!symbol) {
        const char *reason = dlerror();
        fprintf(stderr, "reel: %s has no %s: %s\n", soname, name, reason ? reason : "symbol is NULL");
        abort();
    }
    __atomic_store_n(slot, symbol, __ATOMIC_RELEASE);
    return symbol;
}

/// Defines `result name parameters` as a jump to the real `name` in `library`.
#define CFFMPEG_LAZY(library, result, name, parameters, arguments)                               \
    result name parameters {                                                                     \
        static void *slot;                                                                       \
        void *real = __atomic_load_n(&slot, __ATOMIC_ACQUIRE);                                   \
        if (!real) real = CFFmpegLoader_resolve(CFFmpegLoader_##library, #name, &slot);          \
        return ((__typeof__(&name))real) arguments;                                              \
    }

/// The same for functions returning void (C forbids `return` with a void expression).
#define CFFMPEG_LAZY_VOID(library, name, parameters, arguments)                                  \
    void name parameters {                                                                       \
        static void *slot;                                                                       \
        void *real = __atomic_load_n(&slot, __ATOMIC_ACQUIRE);                                   \
        if (!real) real = CFFmpegLoader_resolve(CFFmpegLoader_##library, #name, &slot);          \
        ((__typeof__(&name))real) arguments;                                                     \
    }

// libavcodec
CFFMPEG_LAZY(avcodec, AVPacket *, av_packet_alloc, (void), ())
CFFMPEG_LAZY_VOID(avcodec, av_packet_free, (AVPacket **pkt), (pkt))
CFFMPEG_LAZY_VOID(avcodec, av_packet_rescale_ts, (AVPacket *pkt, AVRational tb_src, AVRational tb_dst), (pkt, tb_src, tb_dst))
CFFMPEG_LAZY_VOID(avcodec, av_packet_unref, (AVPacket *pkt), (pkt))
CFFMPEG_LAZY(avcodec, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))
CFFMPEG_LAZY(avcodec, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))
CFFMPEG_LAZY(avcodec, const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name))
CFFMPEG_LAZY_VOID(avcodec, avcodec_free_context, (AVCodecContext **avctx), (avctx))
CFFMPEG_LAZY(avcodec, const char *, avcodec_get_name, (enum AVCodecID id), (id))
CFFMPEG_LAZY(avcodec, int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options),
             (avctx, codec, options))
CFFMPEG_LAZY(avcodec, int, avcodec_parameters_copy, (AVCodecParameters *dst, const AVCodecParameters *src), (dst, src))
CFFMPEG_LAZY(avcodec, int, avcodec_parameters_from_context, (AVCodecParameters *par, const AVCodecContext *codec),
             (par, codec))
CFFMPEG_LAZY(avcodec, int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par),
             (codec, par))
CFFMPEG_LAZY(avcodec, const char *, avcodec_profile_name, (enum AVCodecID codec_id, int profile), (codec_id, profile))
CFFMPEG_LAZY(avcodec, int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame))
CFFMPEG_LAZY(avcodec, int, avcodec_receive_packet, (AVCodecContext *avctx, AVPacket *avpkt), (avctx, avpkt))
CFFMPEG_LAZY(avcodec, int, avcodec_send_frame, (AVCodecContext *avctx, const AVFrame *frame), (avctx, frame))
CFFMPEG_LAZY(avcodec, int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt))

// libavformat
CFFMPEG_LAZY(avformat, int, av_find_best_stream,
             (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream,
              const AVCodec **decoder_ret, int flags),
             (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags))
CFFMPEG_LAZY(avformat, const AVInputFormat *, av_find_input_format, (const char *short_name), (short_name))
CFFMPEG_LAZY(avformat, AVRational, av_guess_frame_rate, (AVFormatContext *ctx, AVStream *stream, AVFrame *frame),
             (ctx, stream, frame))
CFFMPEG_LAZY(avformat, int, av_interleaved_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt))
CFFMPEG_LAZY(avformat, int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt))
CFFMPEG_LAZY(avformat, uint8_t *, av_stream_get_side_data,
             (const AVStream *stream, enum AVPacketSideDataType type, size_t *size), (stream, type, size))
CFFMPEG_LAZY(avformat, uint8_t *, av_stream_new_side_data,
             (AVStream *stream, enum AVPacketSideDataType type, size_t size), (stream, type, size))
CFFMPEG_LAZY(avformat, int, av_write_trailer, (AVFormatContext *s), (s))
CFFMPEG_LAZY(avformat, AVFormatContext *, avformat_alloc_context, (void), ())
CFFMPEG_LAZY(avformat, int, avformat_alloc_output_context2,
             (AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename),
             (ctx, oformat, format_name, filename))
CFFMPEG_LAZY_VOID(avformat, avformat_close_input, (AVFormatContext **s), (s))
CFFMPEG_LAZY(avformat, int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options))
CFFMPEG_LAZY_VOID(avformat, avformat_free_context, (AVFormatContext *s), (s))
CFFMPEG_LAZY(avformat, int, avformat_index_get_entries_count, (const AVStream *st), (st))
CFFMPEG_LAZY(avformat, const AVIndexEntry *, avformat_index_get_entry, (AVStream *st, int idx), (st, idx))
CFFMPEG_LAZY(avformat, AVStream *, avformat_new_stream, (AVFormatContext *s, const AVCodec *c), (s, c))
CFFMPEG_LAZY(avformat, int, avformat_open_input,
             (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options),
             (ps, url, fmt, options))
CFFMPEG_LAZY(avformat, int, avformat_write_header, (AVFormatContext *s, AVDictionary **options), (s, options))
CFFMPEG_LAZY(avformat, int, avio_closep, (AVIOContext **s), (s))
CFFMPEG_LAZY(avformat, int, avio_open, (AVIOContext **s, const char *url, int flags), (s, url, flags))
CFFMPEG_LAZY(avformat, int, avio_open2,
             (AVIOContext **s, const char *url, int flags, const AVIOInterruptCB *int_cb, AVDictionary **options),
             (s, url, flags, int_cb, options))

// libswresample
CFFMPEG_LAZY(swresample, int, swr_alloc_set_opts2,
             (struct SwrContext **ps, AVChannelLayout *out_ch_layout, enum AVSampleFormat out_sample_fmt,
              int out_sample_rate, AVChannelLayout *in_ch_layout, enum AVSampleFormat in_sample_fmt,
              int in_sample_rate, int log_offset, void *log_ctx),
             (ps, out_ch_layout, out_sample_fmt, out_sample_rate, in_ch_layout, in_sample_fmt, in_sample_rate,
              log_offset, log_ctx))
CFFMPEG_LAZY(swresample, int, swr_convert_frame, (SwrContext *swr, AVFrame *output, const AVFrame *input),
             (swr, output, input))
CFFMPEG_LAZY_VOID(swresample, swr_free, (struct SwrContext **s), (s))
CFFMPEG_LAZY(swresample, int, swr_init, (struct SwrContext *s), (s))
