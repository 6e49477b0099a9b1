import MediaFixtures
import MediaModel
import TestTraits
import Testing
import Transcode

/// `Presets/compress.json` through the strict loader.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct CompressPresetTests {
    func decode(_ json: String) throws(PresetError) -> CompressPreset {
        try PresetLoader.decode(CompressPreset.self, from: Array(json.utf8), file: "compress.json")
    }

    @Test func shippedFileLoadsAndHoldsTheBuiltInDefaults() throws {
        let loaded = try PresetLoader.decode(
            CompressPreset.self, from: try PresetFixtures.bytes(of: "compress.json"), file: "compress.json")
        #expect(loaded == CompressPreset.default)
    }

    @Test(arguments: try PresetFixtures.misspellings(of: PresetFixtures.bytes(of: "compress.json")))
    func misspeltKeyIsRefusedByFileAndPath(_ misspelling: PresetFixtures.Misspelling) {
        let error = #expect(throws: PresetError.self) {
            try PresetLoader.decode(CompressPreset.self, from: misspelling.bytes, file: "compress.json")
        }
        #expect(error?.kind == .unknownKey)
        #expect(error?.keyPath == misspelling.keyPath)
        #expect(error?.allowedKeys.contains(misspelling.original) == true)
        #expect(error?.description.contains("compress.json") == true)
        #expect(error?.description.contains(misspelling.keyPath) == true)
    }

    @Test func misspeltTierIsRefusedRatherThanLeavingTheDefaultTierInForce() {
        let error = #expect(throws: PresetError.self) { try decode(#"{"presets": {"hihg": {"bitrate_kbps": 8000}}}"#) }
        #expect(error?.keyPath == "presets.hihg")
        #expect(error?.allowedKeys == ["high", "low", "medium"])
    }

    @Test func tierWithOneKeyKeepsItsOtherDefaults() throws {
        let preset = try decode(#"{"presets": {"high": {"bitrate_kbps": 8000}}}"#)
        #expect(preset.tier(.high).bitrateKbps == 8000)
        #expect(preset.tier(.high).shortSide == CompressPreset.default.tier(.high).shortSide)
        #expect(preset.tier(.low) == CompressPreset.default.tier(.low))
    }

    @Test(arguments: [
        (#"{"frame_rate": 0}"#, "frame_rate"),
        (#"{"crf": 60}"#, "crf"),
        (#"{"presets": {"low": {"bitrate_kbps": 0}}}"#, "presets.low.bitrate_kbps"),
        (#"{"audio": {"channels": 0}}"#, "audio.channels"),
        // Ceilings that keep the planner's and encoders' integers from trapping (docs/traps.md).
        (#"{"frame_rate": 1e300}"#, "frame_rate"),
        (#"{"keyframe_interval_seconds": 1e300}"#, "keyframe_interval_seconds"),
        (#"{"audio": {"sample_rate": 3000000000}}"#, "audio.sample_rate"),
        (#"{"presets": {"low": {"short_side": 4000000000}}}"#, "presets.low.short_side"),
        (#"{"presets": {"low": {"bitrate_kbps": 9223372036854775807}}}"#, "presets.low.bitrate_kbps"),
        (#"{"presets": {"high": {"buffer_kbits": 9223372036854775807}}}"#, "presets.high.buffer_kbits"),
        (#"{"presets": {"medium": {"audio_bitrate_kbps": 9223372036854775807}}}"#, "presets.medium.audio_bitrate_kbps"),
    ])
    func valueARuleRefusesIsNamedByPath(json: String, keyPath: String) {
        let error = #expect(throws: PresetError.self) { try decode(json) }
        #expect(error?.kind == .invalidValue)
        #expect(error?.keyPath == keyPath)
    }
}
