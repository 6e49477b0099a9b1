import MediaFixtures
import MediaModel
import TestTraits
import Testing

/// Operators' limits files: partial files keep defaults, typos and nonsense values are refused.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct AdmissionLimitsTests {
    func decode(_ json: String) throws(PresetError) -> AdmissionLimits {
        try PresetLoader.decode(AdmissionLimits.self, from: Array(json.utf8), file: "limits.json")
    }

    @Test func partialFileKeepsTheOtherDefaults() throws {
        let limits = try decode(#"{"video": {"min_duration_seconds": 15}}"#)
        #expect(limits.video.minDurationSeconds == 15)
        #expect(limits.video.maxBytes == AdmissionLimits.default.video.maxBytes)
        #expect(limits.image == AdmissionLimits.default.image)
    }

    @Test func emptyObjectIsTheDefaults() throws {
        #expect(try decode("{}") == .default)
    }

    @Test func shippedFileLoadsAndHoldsTheBuiltInDefaults() throws {
        let loaded = try PresetLoader.decode(
            AdmissionLimits.self, from: try PresetFixtures.bytes(of: "limits.json"), file: "limits.json")
        #expect(loaded == AdmissionLimits.default)
    }

    @Test(arguments: try PresetFixtures.misspellings(of: PresetFixtures.bytes(of: "limits.json")))
    func misspeltKeyIsRefusedByFileAndPath(_ misspelling: PresetFixtures.Misspelling) {
        let error = #expect(throws: PresetError.self) {
            try PresetLoader.decode(AdmissionLimits.self, from: misspelling.bytes, file: "limits.json")
        }
        #expect(error?.kind == .unknownKey)
        #expect(error?.keyPath == misspelling.keyPath)
        #expect(error?.allowedKeys.contains(misspelling.original) == true)
        #expect(error?.description.contains("limits.json") == true)
        #expect(error?.description.contains(misspelling.keyPath) == true)
    }

    @Test(arguments: [
        (#"{"image": {"max_pixels": 0}}"#, "image.max_pixels"),
        (#"{"video": {"max_frame_rate": -5}}"#, "video.max_frame_rate"),
        (#"{"video": {"max_bytes": 0}}"#, "video.max_bytes"),
        (#"{"video": {"duration_tolerance_seconds": -1}}"#, "video.duration_tolerance_seconds"),
    ])
    func valueOutOfRangeIsRefusedAtItsKey(json: String, keyPath: String) {
        let error = #expect(throws: PresetError.self) { try decode(json) }
        #expect(error?.kind == .invalidValue)
        #expect(error?.keyPath == keyPath)
    }
}
