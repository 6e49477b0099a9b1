/// Ladder presets for tests that run `reel worker` or `reel transcode` as a process (`--ladder FILE`).
package enum TestLadder {
    /// Two H.264 rungs (90p, 180p) with 2 s segments: a small clip makes a ladder `reel hls-check` passes (one variant
    /// alone is a MUST failure), quickly.
    package static let twoRungJSON = #"""
        {"codecs": ["h264"], "segment_seconds": 2, "keyframe_interval_seconds": 1,
         "rungs": [{"id": "90p", "short_side": 90, "crf": 28, "max_bitrate_kbps": 300, "buffer_kbits": 600, "audio_bitrate_kbps": 64},
                   {"id": "180p", "short_side": 180, "crf": 28, "max_bitrate_kbps": 600, "buffer_kbits": 1200, "audio_bitrate_kbps": 96}],
         "poster": {"rung": "180p"}}
        """#
}
