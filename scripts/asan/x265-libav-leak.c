// One HEVC encode through libavcodec's libx265 wrapper, as Reel's HEVC rungs open it (x265-params with pools=N,
// Sources/Transcode/RungOutput.swift), drained and freed as FFmpeg's doc/examples/encode_video.c does.
// LeakSanitizer still reports x265's own allocations: the strdup of the pools value in x265_param_parse, which
// x265_param_free never frees (gone without pools=1), and blocks from x265_encoder_open.
// scripts/asan/x265-libav-leak.sh runs it.
#include <libavcodec/avcodec.h>
#include <libavutil/opt.h>
#include <stdio.h>

static void drain(AVCodecContext *context, AVFrame *frame, AVPacket *packet) {
    if (avcodec_send_frame(context, frame) < 0) return;
    while (avcodec_receive_packet(context, packet) == 0) av_packet_unref(packet);
}

int main(void) {
    const AVCodec *codec = avcodec_find_encoder_by_name("libx265");
    if (!codec) { fprintf(stderr, "no libx265\n"); return 1; }
    AVCodecContext *context = avcodec_alloc_context3(codec);
    context->width = 64;
    context->height = 64;
    context->pix_fmt = AV_PIX_FMT_YUV420P;
    context->time_base = (AVRational){1, 30};
    context->thread_count = 1;
    AVDictionary *options = NULL;
    av_dict_set(&options, "preset", "ultrafast", 0);
    av_dict_set(&options, "x265-params", "pools=1:log-level=error", 0);
    if (avcodec_open2(context, codec, &options) < 0) { fprintf(stderr, "avcodec_open2 failed\n"); return 1; }
    av_dict_free(&options);
    AVFrame *frame = av_frame_alloc();
    frame->format = context->pix_fmt;
    frame->width = context->width;
    frame->height = context->height;
    if (av_frame_get_buffer(frame, 0) < 0) return 1;
    AVPacket *packet = av_packet_alloc();
    for (int i = 0; i < 10; i++) {
        av_frame_make_writable(frame);
        for (int p = 0; p < 3; p++)
            for (int y = 0; y < (p ? 32 : 64); y++)
                for (int x = 0; x < (p ? 32 : 64); x++) frame->data[p][y * frame->linesize[p] + x] = x + y + i * 3;
        frame->pts = i;
        drain(context, frame, packet);
    }
    drain(context, NULL, packet);
    av_packet_free(&packet);
    av_frame_free(&frame);
    avcodec_free_context(&context);
    fprintf(stderr, "encoded 10 frames and freed everything\n");
    return 0;
}
