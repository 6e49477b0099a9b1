import Foundation
import Testing

@testable import ObjectStore

@Suite(.timeLimit(.minutes(5))) struct ObjectInfoAgeTests {
    /// Every second of a few days around leap years and the epoch agrees with Foundation's ISO 8601 parser.
    @Test(arguments: [0, 951_782_400, 1_709_164_800, 1_798_761_599, 4_107_456_000])
    func listingTimesAreUnixSecondsAsFoundationReadsThem(start: Int) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        for second in stride(from: start - 86_400 * 2, through: start + 86_400 * 2, by: 997) where second >= 0 {
            let text = formatter.string(from: Date(timeIntervalSince1970: Double(second)))
            #expect(ObjectInfo.unixSeconds(iso8601: text) == Int64(second), "\(text)")
            let withFraction = text.dropLast() + ".123Z"
            #expect(ObjectInfo.unixSeconds(iso8601: String(withFraction)) == Int64(second), "\(withFraction)")
        }
    }

    @Test func otherFormsHaveNoAge() {
        for text in [
            "", "Fri, 27 Nov 2026 16:05:09 GMT", "2026-11-27T16:05:09", "2026-11-27 16:05:09Z",
            "2026-13-27T16:05:09Z", "2026-11-27T24:05:09Z", "2026-11-27T16:05:09.Z", "2026-11-27T16:05:09.1x3Z",
            "2026-11-2xT16:05:09Z", "+026-11-27T16:05:09Z",
        ] {
            #expect(ObjectInfo.unixSeconds(iso8601: text) == nil, "\(text)")
        }
        let info = ObjectInfo(key: "k", size: 1, etag: "", lastModified: "2026-11-27T16:05:09.000Z")
        #expect(info.modifiedSeconds == 1_795_795_509)
    }

    /// A store may write any number of fraction digits: read as one number, twenty of them passed Int64 and trapped
    /// the sweep that lists the library (docs/traps.md).
    @Test func aFractionOfManyDigitsIsReadAsTheSecondItFollows() {
        let long = "2026-11-27T16:05:09." + String(repeating: "9", count: 40) + "Z"
        #expect(ObjectInfo.unixSeconds(iso8601: long) == 1_795_795_509)
        #expect(
            ObjectInfo.unixSeconds(iso8601: "2026-11-27T16:05:09." + String(repeating: "9", count: 40) + "xZ") == nil)
    }
}
