import MediaFixtures
import MediaModel
import TestTraits
import Testing
import Transcode

/// `Presets/ladder.json` through the strict loader.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct LadderPresetTests {
    func decode(_ json: String) throws(PresetError) -> LadderPreset {
        try PresetLoader.decode(LadderPreset.self, from: Array(json.utf8), file: "ladder.json")
    }

    @Test func shippedFileLoadsAndHoldsTheBuiltInDefaults() throws {
        let loaded = try PresetLoader.decode(
            LadderPreset.self, from: try PresetFixtures.bytes(of: "ladder.json"), file: "ladder.json")
        #expect(loaded == LadderPreset.default)
    }

    @Test(arguments: try PresetFixtures.misspellings(of: PresetFixtures.bytes(of: "ladder.json")))
    func misspeltKeyIsRefusedByFileAndPath(_ misspelling: PresetFixtures.Misspelling) {
        let error = #expect(throws: PresetError.self) {
            try PresetLoader.decode(LadderPreset.self, from: misspelling.bytes, file: "ladder.json")
        }
        #expect(error?.kind == .unknownKey)
        #expect(error?.keyPath == misspelling.keyPath)
        #expect(error?.allowedKeys.contains(misspelling.original) == true)
        #expect(error?.description.contains("ladder.json") == true)
        #expect(error?.description.contains(misspelling.keyPath) == true)
    }

    @Test func misspeltRungKeyNamesTheRungAndTheKeysARungHas() {
        let error = #expect(throws: PresetError.self) {
            try decode(
                #"""
                {"rungs": [{"id": "360p", "short_side": 360, "crf": 21, "max_bitrate_kbps": 1500, "buffer_kbits": 3000, "audio_bitrate_kbps": 64},
                           {"id": "720p", "short_side": 720, "crf": 21, "bitrat": 3000, "buffer_kbits": 6000, "audio_bitrate_kbps": 96}],
                 "poster": {"rung": "720p"}}
                """#)
        }
        #expect(error?.keyPath == "rungs[1].bitrat")
        #expect(
            error?.allowedKeys == [
                "audio_bitrate_kbps", "av1_crf", "buffer_kbits", "crf", "hevc_crf", "id", "max_bitrate_kbps",
                "short_side", "target_ssim_y",
            ])
    }

    @Test func partialFileKeepsTheOtherDefaults() throws {
        let preset = try decode(#"{"segment_seconds": 6, "audio": {"channels": 1}}"#)
        #expect(preset.segmentSeconds == 6)
        #expect(preset.audio == LadderPreset.Audio(sampleRate: 48_000, channels: 1))
        #expect(preset.rungs == LadderPreset.default.rungs)
    }

    @Test(arguments: [
        (#"{"segment_seconds": 0}"#, "segment_seconds"),
        (#"{"segment_seconds": 5}"#, "segment_seconds"),
        (#"{"keyframe_interval_seconds": -2}"#, "keyframe_interval_seconds"),
        (#"{"x264_preset": "veryfsat"}"#, "x264_preset"),
        (#"{"audio": {"sample_rate": 0}}"#, "audio.sample_rate"),
        (#"{"rungs": []}"#, "rungs"),
        (
            #"{"rungs": [{"id": "720p", "short_side": 0, "crf": 21, "max_bitrate_kbps": 1, "buffer_kbits": 1, "audio_bitrate_kbps": 1}]}"#,
            "rungs[0].short_side"
        ),
        (#"{"poster": {"rung": "480p"}}"#, "poster.rung"),
        // Ceilings that keep the planner's and encoders' integers from trapping (docs/traps.md).
        (#"{"segment_seconds": 1e300, "keyframe_interval_seconds": 1e300}"#, "segment_seconds"),
        (#"{"segment_seconds": 4, "keyframe_interval_seconds": 1e300}"#, "keyframe_interval_seconds"),
        (#"{"max_frame_rate": 1e300}"#, "max_frame_rate"),
        (#"{"audio": {"sample_rate": 3000000000}}"#, "audio.sample_rate"),
        (
            #"{"rungs": [{"id": "720p", "short_side": 4000000000, "crf": 21, "max_bitrate_kbps": 1, "buffer_kbits": 1, "audio_bitrate_kbps": 1}]}"#,
            "rungs[0].short_side"
        ),
        (
            #"{"rungs": [{"id": "720p", "short_side": 720, "crf": 21, "max_bitrate_kbps": 9223372036854775807, "buffer_kbits": 1, "audio_bitrate_kbps": 1}]}"#,
            "rungs[0].max_bitrate_kbps"
        ),
        (
            #"{"rungs": [{"id": "720p", "short_side": 720, "crf": 21, "max_bitrate_kbps": 1, "buffer_kbits": 9223372036854775807, "audio_bitrate_kbps": 1}]}"#,
            "rungs[0].buffer_kbits"
        ),
        (
            #"{"rungs": [{"id": "720p", "short_side": 720, "crf": 21, "max_bitrate_kbps": 1, "buffer_kbits": 1, "audio_bitrate_kbps": 9223372036854775807}]}"#,
            "rungs[0].audio_bitrate_kbps"
        ),
    ])
    func valueARuleRefusesIsNamedByPath(json: String, keyPath: String) {
        let error = #expect(throws: PresetError.self) { try decode(json) }
        #expect(error?.kind == .invalidValue)
        #expect(error?.keyPath == keyPath)
    }
}
