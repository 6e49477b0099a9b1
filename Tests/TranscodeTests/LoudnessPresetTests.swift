import MediaModel
import Testing
import Transcode

/// The `loudness` object of `Presets/ladder.json` and `Presets/compress.json`: defaults, and refusals that name the
/// key and the limit.
@Suite(.timeLimit(.minutes(1))) struct LoudnessPresetTests {
    @Test func defaultsAreMinusFourteenLUFSAndMinusOneDBTP() {
        let loudness = LadderPreset.default.loudness
        #expect(loudness.enabled && loudness.targetLUFS == -14 && loudness.truePeakCeilingDBTP == -1)
        #expect(loudness.maxGainDB == 20)
        #expect(CompressPreset.default.loudness == loudness)
    }

    @Test func aFileMayMoveTheTargetAndKeepTheRest() throws {
        let preset = try PresetLoader.decode(
            LadderPreset.self, from: Array(#"{"loudness": {"target_lufs": -16}}"#.utf8), file: "ladder.json")
        #expect(preset.loudness.targetLUFS == -16)
        #expect(preset.loudness.maxGainDB == 20 && preset.loudness.truePeakCeilingDBTP == -1)
    }

    @Test(arguments: [
        (#"{"loudness": {"target_lufs": -60}}"#, "loudness.target_lufs", "from -40.0 to -5.0"),
        (#"{"loudness": {"true_peak_ceiling_dbtp": 2}}"#, "loudness.true_peak_ceiling_dbtp", "from -12.0 to 0.0"),
        (#"{"loudness": {"max_gain_db": -3}}"#, "loudness.max_gain_db", "from 0.0 to 40.0"),
        (#"{"loudness": {"codec_margin_db": 9}}"#, "loudness.codec_margin_db", "from 0.0 to 6.0"),
        (#"{"loudness": {"target_lufs": -6, "true_peak_ceiling_dbtp": -6}}"#, "loudness.target_lufs", "below"),
    ])
    func aValueOutOfRangeIsNamedWithItsLimit(json: String, keyPath: String, limit: String) {
        for file in ["ladder.json", "compress.json"] {
            let error = #expect(throws: PresetError.self) {
                if file == "ladder.json" {
                    _ = try PresetLoader.decode(LadderPreset.self, from: Array(json.utf8), file: file)
                } else {
                    _ = try PresetLoader.decode(CompressPreset.self, from: Array(json.utf8), file: file)
                }
            }
            #expect(error?.keyPath == keyPath, "\(file)")
            #expect(error?.description.contains(limit) == true, "\(file): \(error?.description ?? "")")
        }
    }

    @Test func aMisspeltKeyListsTheLoudnessKeys() {
        let error = #expect(throws: PresetError.self) {
            _ = try PresetLoader.decode(
                LadderPreset.self, from: Array(#"{"loudness": {"target": -14}}"#.utf8), file: "ladder.json")
        }
        #expect(error?.kind == .unknownKey)
        #expect(error?.allowedKeys.contains("target_lufs") == true)
    }
}
