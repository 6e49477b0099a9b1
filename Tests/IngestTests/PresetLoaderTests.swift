import MediaFixtures
import MediaModel
import TestTraits
import Testing

/// The loader's rules on a small preset of its own: a list of entries and a table keyed by a closed set of names.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct PresetLoaderTests {
    enum Size: String, Codable, CodingKeyRepresentable, CaseIterable, Sendable { case small, large }

    struct Sample: PresetFile, Equatable {
        struct Entry: Codable, Equatable, Sendable {
            var name: String
            var count: Int
            enum CodingKeys: String, CodingKey, CaseIterable { case name, count }
        }

        var rate: Double
        var entries: [Entry]
        var sizes: [Size: Int]
        enum CodingKeys: String, CodingKey, CaseIterable { case rate, entries, sizes }

        static var fileName: String { "sample.json" }
        static var `default`: Sample {
            Sample(
                rate: 1.5, entries: [Entry(name: "a", count: 1), Entry(name: "b", count: 2)],
                sizes: [.small: 1, .large: 2])
        }

        func validate(_ check: inout PresetCheck) {
            check.positive(rate, at: "rate")
        }
    }

    func decode(_ json: String) throws(PresetError) -> Sample {
        try PresetLoader.decode(Sample.self, from: Array(json.utf8), file: "sample.json")
    }

    @Test func objectsMergeOverTheDefaultsAndListsReplaceThem() throws {
        let sample = try decode(#"{"entries": [{"name": "c", "count": 3}], "sizes": {"large": 9}}"#)
        #expect(sample.rate == 1.5)
        #expect(sample.entries == [Sample.Entry(name: "c", count: 3)])
        #expect(sample.sizes == [.small: 1, .large: 9])
    }

    @Test func unknownKeyInsideAListEntryIsNamedWithItsIndex() {
        let error = #expect(throws: PresetError.self) {
            try decode(#"{"entries": [{"name": "c", "count": 3}, {"name": "d", "cuont": 4}]}"#)
        }
        #expect(error?.kind == .unknownKey)
        #expect(error?.keyPath == "entries[1].cuont")
        #expect(error?.allowedKeys == ["count", "name"])
        #expect(error?.description == "preset sample.json: entries[1].cuont: unknown key; allowed here: count, name")
    }

    @Test func nameOutsideANamedTableIsAnUnknownKey() {
        let error = #expect(throws: PresetError.self) { try decode(#"{"sizes": {"medium": 5}}"#) }
        #expect(error?.kind == .unknownKey)
        #expect(error?.keyPath == "sizes.medium")
        #expect(error?.allowedKeys == ["large", "small"])
    }

    @Test func listEntryTakesNoDefaults() {
        let error = #expect(throws: PresetError.self) { try decode(#"{"entries": [{"name": "c"}]}"#) }
        #expect(error?.kind == .missingKey)
        #expect(error?.keyPath == "entries[0].count")
    }

    @Test(arguments: [
        (#"{"rate": "fast"}"#, "rate"),
        (#"{"entries": [{"name": "c", "count": 1.5}]}"#, "entries[0].count"),
        (#"{"entries": {"name": "c"}}"#, "entries"),
        (#"{"sizes": {"small": null}}"#, "sizes.small"),
    ])
    func valueOfTheWrongTypeIsNamedByPath(json: String, keyPath: String) {
        let error = #expect(throws: PresetError.self) { try decode(json) }
        #expect(error?.kind == .wrongType || error?.kind == .invalidValue)
        #expect(error?.keyPath == keyPath)
    }

    @Test func wholeNumberWrittenWithAFractionIsAccepted() throws {
        #expect(try decode(#"{"sizes": {"small": 4.0}}"#).sizes[.small] == 4)
    }

    @Test func ruleOfTheTypeIsChecked() {
        let error = #expect(throws: PresetError.self) { try decode(#"{"rate": 0}"#) }
        #expect(error?.kind == .invalidValue)
        #expect(error?.keyPath == "rate")
        #expect(error?.message == "must be positive, got 0.0")
    }

    @Test(arguments: ["{not json", "", "[1, 2]", "\"text\""])
    func fileThatIsNotAJSONObjectIsRefused(text: String) {
        let error = #expect(throws: PresetError.self) { try decode(text) }
        #expect(error?.kind == .malformed || error?.kind == .wrongType)
        #expect(error?.keyPath == "")
        #expect(error?.description.hasPrefix("preset sample.json: ") == true)
    }

    /// Each test target checks its own files; this keeps a new file from arriving without a loader test.
    @Test func presetsFolderHoldsTheFourFilesThatHaveLoaderTests() throws {
        // limits.json: AdmissionLimitsTests; ladder.json, compress.json: TranscodeTests; images.json: ChatImagesTests.
        #expect(try PresetFixtures.fileNames() == ["compress.json", "images.json", "ladder.json", "limits.json"])
    }
}
