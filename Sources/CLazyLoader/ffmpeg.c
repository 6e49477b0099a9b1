// libavformat, libavcodec and libswresample on first use: every function of theirs that Reel calls is defined here
// under its own name, as a trampoline that opens the real library (RTLD_NOW) and jumps to the real symbol. The
// process then starts without those libraries and their ~90 codec dependencies, about 25 ms of dynamic linking
// that image jobs do not need.

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/macros.h>
#include <libswresample/swresample.h>

#include "lazy.h"

/// The sonames of the major versions the headers describe, so the loaded library matches what was compiled against.
static struct CLazyLoader_Library avcodec = {"libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR), 0};
static struct CLazyLoader_Library avformat = {"libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR), 0};
static struct CLazyLoader_Library swresample = {"libswresample.so." AV_STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR), 0};

void CLazyLoader_preloadFFmpeg(void) {
    CLazyLoader_open(&avformat);
    CLazyLoader_open(&avcodec);
    CLazyLoader_open(&swresample);
}

// libavcodec
CLAZY_FUNCTION(avcodec, AVPacket *, av_packet_alloc, (void), ())
CLAZY_VOID_FUNCTION(avcodec, av_packet_free, (AVPacket **pkt), (pkt))
CLAZY_VOID_FUNCTION(avcodec, av_packet_rescale_ts, (AVPacket *pkt, AVRational tb_src, AVRational tb_dst), (pkt, tb_src, tb_dst))
CLAZY_VOID_FUNCTION(avcodec, av_packet_unref, (AVPacket *pkt), (pkt))
CLAZY_FUNCTION(avcodec, int, av_packet_ref, (AVPacket *dst, const AVPacket *src), (dst, src))
CLAZY_FUNCTION(avcodec, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))
CLAZY_FUNCTION(avcodec, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))
CLAZY_FUNCTION(avcodec, const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name))
CLAZY_VOID_FUNCTION(avcodec, avcodec_free_context, (AVCodecContext **avctx), (avctx))
CLAZY_FUNCTION(avcodec, const char *, avcodec_get_name, (enum AVCodecID id), (id))
CLAZY_FUNCTION(avcodec, int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options),
               (avctx, codec, options))
CLAZY_FUNCTION(avcodec, AVCodecParameters *, avcodec_parameters_alloc, (void), ())
CLAZY_VOID_FUNCTION(avcodec, avcodec_parameters_free, (AVCodecParameters **par), (par))
CLAZY_FUNCTION(avcodec, int, avcodec_parameters_copy, (AVCodecParameters *dst, const AVCodecParameters *src), (dst, src))
CLAZY_FUNCTION(avcodec, int, avcodec_parameters_from_context, (AVCodecParameters *par, const AVCodecContext *codec),
               (par, codec))
CLAZY_FUNCTION(avcodec, int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par),
               (codec, par))
CLAZY_FUNCTION(avcodec, const char *, avcodec_profile_name, (enum AVCodecID codec_id, int profile), (codec_id, profile))
CLAZY_FUNCTION(avcodec, int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame))
CLAZY_FUNCTION(avcodec, int, avcodec_receive_packet, (AVCodecContext *avctx, AVPacket *avpkt), (avctx, avpkt))
CLAZY_FUNCTION(avcodec, int, avcodec_send_frame, (AVCodecContext *avctx, const AVFrame *frame), (avctx, frame))
CLAZY_FUNCTION(avcodec, int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt))

// libavformat
CLAZY_FUNCTION(avformat, int, av_find_best_stream,
               (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream,
               const AVCodec **decoder_ret, int flags),
               (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags))
CLAZY_FUNCTION(avformat, const AVInputFormat *, av_find_input_format, (const char *short_name), (short_name))
CLAZY_FUNCTION(avformat, AVRational, av_guess_frame_rate, (AVFormatContext *ctx, AVStream *stream, AVFrame *frame),
               (ctx, stream, frame))
CLAZY_FUNCTION(avformat, int, av_interleaved_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt))
CLAZY_FUNCTION(avformat, int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt))
CLAZY_FUNCTION(avformat, int, av_seek_frame, (AVFormatContext *s, int stream_index, int64_t timestamp, int flags),
               (s, stream_index, timestamp, flags))
CLAZY_FUNCTION(avformat, uint8_t *, av_stream_get_side_data,
               (const AVStream *stream, enum AVPacketSideDataType type, size_t *size), (stream, type, size))
CLAZY_FUNCTION(avformat, uint8_t *, av_stream_new_side_data,
               (AVStream *stream, enum AVPacketSideDataType type, size_t size), (stream, type, size))
CLAZY_FUNCTION(avformat, int, av_write_trailer, (AVFormatContext *s), (s))
CLAZY_FUNCTION(avformat, AVFormatContext *, avformat_alloc_context, (void), ())
CLAZY_FUNCTION(avformat, int, avformat_alloc_output_context2,
               (AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename),
               (ctx, oformat, format_name, filename))
CLAZY_VOID_FUNCTION(avformat, avformat_close_input, (AVFormatContext **s), (s))
CLAZY_FUNCTION(avformat, int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options))
CLAZY_VOID_FUNCTION(avformat, avformat_free_context, (AVFormatContext *s), (s))
CLAZY_FUNCTION(avformat, int, avformat_index_get_entries_count, (const AVStream *st), (st))
CLAZY_FUNCTION(avformat, const AVIndexEntry *, avformat_index_get_entry, (AVStream *st, int idx), (st, idx))
CLAZY_FUNCTION(avformat, AVStream *, avformat_new_stream, (AVFormatContext *s, const AVCodec *c), (s, c))
CLAZY_FUNCTION(avformat, int, avformat_open_input,
               (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options),
               (ps, url, fmt, options))
CLAZY_FUNCTION(avformat, int, avformat_write_header, (AVFormatContext *s, AVDictionary **options), (s, options))
CLAZY_FUNCTION(avformat, int, avio_closep, (AVIOContext **s), (s))
CLAZY_FUNCTION(avformat, int, avio_open, (AVIOContext **s, const char *url, int flags), (s, url, flags))
CLAZY_FUNCTION(avformat, int, avio_open2,
               (AVIOContext **s, const char *url, int flags, const AVIOInterruptCB *int_cb, AVDictionary **options),
               (s, url, flags, int_cb, options))

// libswresample
CLAZY_FUNCTION(swresample, int, swr_alloc_set_opts2,
               (struct SwrContext **ps, AVChannelLayout *out_ch_layout, enum AVSampleFormat out_sample_fmt,
               int out_sample_rate, AVChannelLayout *in_ch_layout, enum AVSampleFormat in_sample_fmt,
               int in_sample_rate, int log_offset, void *log_ctx),
               (ps, out_ch_layout, out_sample_fmt, out_sample_rate, in_ch_layout, in_sample_fmt, in_sample_rate,
               log_offset, log_ctx))
CLAZY_FUNCTION(swresample, int, swr_convert_frame, (SwrContext *swr, AVFrame *output, const AVFrame *input),
               (swr, output, input))
CLAZY_VOID_FUNCTION(swresample, swr_free, (struct SwrContext **s), (s))
CLAZY_FUNCTION(swresample, int, swr_init, (struct SwrContext *s), (s))
