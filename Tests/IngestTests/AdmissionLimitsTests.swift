import Foundation
import MediaModel
import Testing

/// Operators' limits files: partial files keep defaults, typos and nonsense values are refused.
@Suite struct AdmissionLimitsTests {
    func decode(_ json: String) throws -> AdmissionLimits {
        try JSONDecoder().decode(AdmissionLimits.self, from: Data(json.utf8))
    }

    @Test func partialFileKeepsTheOtherDefaults() throws {
        let limits = try decode(#"{"video": {"min_duration_seconds": 15}}"#)
        #expect(limits.video.minDurationSeconds == 15)
        #expect(limits.video.maxBytes == AdmissionLimits.default.video.maxBytes)
        #expect(limits.image == AdmissionLimits.default.image)
    }

    @Test func misspelledKeyIsRefusedByName() {
        do {
            _ = try decode(#"{"video": {"max_byte": 10}}"#)
            Issue.record("a misspelled key was accepted")
        } catch {
            #expect("\(error)".contains("max_byte"))
        }
    }

    @Test(arguments: [#"{"image": {"max_pixels": 0}}"#, #"{"video": {"max_frame_rate": -5}}"#])
    func nonPositiveLimitIsRefused(json: String) {
        #expect(throws: DecodingError.self) { _ = try decode(json) }
    }

    @Test func emptyObjectIsTheDefaults() throws {
        #expect(try decode("{}") == .default)
    }
}
