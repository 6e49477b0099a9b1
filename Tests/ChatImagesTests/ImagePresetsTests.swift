import ChatImages
import MediaFixtures
import MediaModel
import TestTraits
import Testing

/// `Presets/images.json` through the strict loader.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ImagePresetsTests {
    func decode(_ json: String) throws(PresetError) -> ImagePresets {
        try PresetLoader.decode(ImagePresets.self, from: Array(json.utf8), file: "images.json")
    }

    @Test func shippedFileLoadsAndHoldsTheBuiltInDefaults() throws {
        let loaded = try PresetLoader.decode(
            ImagePresets.self, from: try PresetFixtures.bytes(of: "images.json"), file: "images.json")
        #expect(loaded == ImagePresets.default)
    }

    @Test(arguments: try PresetFixtures.misspellings(of: PresetFixtures.bytes(of: "images.json")))
    func misspeltKeyIsRefusedByFileAndPath(_ misspelling: PresetFixtures.Misspelling) {
        let error = #expect(throws: PresetError.self) {
            try PresetLoader.decode(ImagePresets.self, from: misspelling.bytes, file: "images.json")
        }
        #expect(error?.kind == .unknownKey)
        #expect(error?.keyPath == misspelling.keyPath)
        #expect(error?.allowedKeys.contains(misspelling.original) == true)
        #expect(error?.description.contains("images.json") == true)
        #expect(error?.description.contains(misspelling.keyPath) == true)
    }

    @Test func qualityAloneKeepsTheDefaultSide() throws {
        let presets = try decode(#"{"presets": {"low": {"quality": 45}}}"#)
        #expect(presets.preset(.low) == ImagePresets.Preset(maxSide: 1024, quality: 45))
        #expect(presets.preset(.high) == ImagePresets.default.preset(.high))
    }

    @Test(arguments: [
        (#"{"method": 7}"#, "method"),
        (#"{"presets": {"high": {"max_side": 0}}}"#, "presets.high.max_side"),
        (#"{"presets": {"medium": {"quality": 101}}}"#, "presets.medium.quality"),
    ])
    func valueARuleRefusesIsNamedByPath(json: String, keyPath: String) {
        let error = #expect(throws: PresetError.self) { try decode(json) }
        #expect(error?.kind == .invalidValue)
        #expect(error?.keyPath == keyPath)
    }
}
