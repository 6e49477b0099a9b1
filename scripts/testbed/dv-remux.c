/* Remuxes the first video stream of an MP4 into a new MP4 with a Dolby Vision decoder configuration record
 * (dvvC: profile, level, base-layer compatibility id), as phones write for profile 8.x. The ffmpeg CLI cannot add
 * one; libavformat's mp4 muxer writes it from stream side data. Test-bed tool only, never part of Reel.
 * Usage: dv-remux IN.mp4 OUT.mp4 PROFILE COMPATIBILITY     (8 4: an iPhone-style 8.4 HLG stream) */
#include <libavformat/avformat.h>
#include <libavutil/dovi_meta.h>
#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what, int code) {
    fprintf(stderr, "dv-remux: %s failed (%d)\n", what, code);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: dv-remux IN OUT PROFILE COMPATIBILITY\n"); return 2; }
    AVFormatContext *in = NULL, *out = NULL;
    int r;
    if ((r = avformat_open_input(&in, argv[1], NULL, NULL)) < 0) return fail("avformat_open_input", r);
    if ((r = avformat_find_stream_info(in, NULL)) < 0) return fail("avformat_find_stream_info", r);
    int video = av_find_best_stream(in, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (video < 0) return fail("av_find_best_stream", video);
    if ((r = avformat_alloc_output_context2(&out, NULL, "mp4", argv[2])) < 0)
        return fail("avformat_alloc_output_context2", r);
    AVStream *os = avformat_new_stream(out, NULL);
    if (!os) return fail("avformat_new_stream", 0);
    if ((r = avcodec_parameters_copy(os->codecpar, in->streams[video]->codecpar)) < 0)
        return fail("avcodec_parameters_copy", r);
    os->codecpar->codec_tag = 0;
    os->time_base = in->streams[video]->time_base;
    size_t size = 0;
    AVDOVIDecoderConfigurationRecord *dovi = av_dovi_alloc(&size);
    if (!dovi) return fail("av_dovi_alloc", 0);
    dovi->dv_version_major = 1;
    dovi->dv_profile = atoi(argv[3]);
    dovi->dv_level = 4;
    dovi->rpu_present_flag = 1;
    dovi->bl_present_flag = 1;
    dovi->dv_bl_signal_compatibility_id = atoi(argv[4]);
    if ((r = av_stream_add_side_data(os, AV_PKT_DATA_DOVI_CONF, (uint8_t *)dovi, size)) < 0)
        return fail("av_stream_add_side_data", r);
    if ((r = avio_open(&out->pb, argv[2], AVIO_FLAG_WRITE)) < 0) return fail("avio_open", r);
    AVDictionary *options = NULL;
    av_dict_set(&options, "strict", "unofficial", 0);
    if ((r = avformat_write_header(out, &options)) < 0) return fail("avformat_write_header", r);
    av_dict_free(&options);
    AVPacket *packet = av_packet_alloc();
    while (av_read_frame(in, packet) >= 0) {
        if (packet->stream_index == video) {
            av_packet_rescale_ts(packet, in->streams[video]->time_base, os->time_base);
            packet->stream_index = 0;
            if ((r = av_interleaved_write_frame(out, packet)) < 0) return fail("av_interleaved_write_frame", r);
        } else {
            av_packet_unref(packet);
        }
    }
    if ((r = av_write_trailer(out)) < 0) return fail("av_write_trailer", r);
    av_packet_free(&packet);
    avio_closep(&out->pb);
    avformat_free_context(out);
    avformat_close_input(&in);
    return 0;
}
