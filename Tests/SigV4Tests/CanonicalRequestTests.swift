import Testing

@testable import SigV4

/// Each canonicalisation rule on its own, and the calendar over its edges.
@Suite(.timeLimit(.minutes(5))) struct CanonicalRequestTests {
    @Test func encodingKeepsOnlyTheUnreservedBytes() {
        #expect(URIEncoding.encode("AZaz09-_.~") == "AZaz09-_.~")
        #expect(URIEncoding.encode("a b+c/d=é") == "a%20b%2Bc%2Fd%3D%C3%A9")
        #expect(URIEncoding.encode("/dir/a b", keepingSlashes: true) == "/dir/a%20b")
        // Every byte value: unreserved bytes pass, every other one is %XY, upper-case.
        for byte in UInt8(0)...UInt8(127) {
            let text = String(UnicodeScalar(byte))
            let encoded = URIEncoding.encode(text)
            if URIEncoding.isUnreserved(byte) {
                #expect(encoded == text)
            } else {
                #expect(encoded.count == 3 && encoded.hasPrefix("%") && encoded == encoded.uppercased(), "\(byte)")
            }
        }
    }

    @Test func queriesSortByEncodedNameThenValueAndKeepEmptyValues() {
        let query = CanonicalRequest.query([("b", "2"), ("a", "z"), ("a", "y"), ("uploads", ""), ("A", "1")])
        #expect(query == "A=1&a=y&a=z&b=2&uploads=")
        #expect(CanonicalRequest.query([("prefix", "a b/c")]) == "prefix=a%20b%2Fc")
    }

    @Test func headersAreLowerCasedSortedTrimmedAndJoined() {
        let (lines, signed) = CanonicalRequest.headers([
            ("X-Amz-Meta-B", "  two   words  "), ("Host", "h"), ("x-amz-meta-b", "again"), ("Content-Type", "a\tb"),
        ])
        #expect(lines == "content-type:a b\nhost:h\nx-amz-meta-b:two words,again\n")
        #expect(signed == "content-type;host;x-amz-meta-b")
    }

    @Test func theCalendarMatchesKnownDays() {
        let cases: [(Int64, String)] = [
            (0, "19700101T000000Z"), (951_782_400, "20000229T000000Z"), (951_868_799, "20000229T235959Z"),
            (4_102_444_800, "21000101T000000Z"), (1_709_164_800, "20240229T000000Z"), (-1, "19691231T235959Z"),
        ]
        for (seconds, text) in cases { #expect(AmzDate(unixSeconds: seconds).timestamp == text, "\(seconds)") }
    }

    /// Day after day for 400 years either side of 1970 (a whole Gregorian cycle each way), each date follows the last.
    @Test func everyDayFollowsTheDayBefore() {
        var previous = AmzDate.civil(daysSinceEpoch: -146_097)
        for day in Int64(-146_096)...146_097 {
            let date = AmzDate.civil(daysSinceEpoch: day)
            let lengths: [Int64] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            let leap = previous.0 % 4 == 0 && (previous.0 % 100 != 0 || previous.0 % 400 == 0)
            let monthLength = previous.1 == 2 && leap ? 29 : lengths[Int(previous.1 - 1)]
            let expected =
                previous.2 < monthLength
                ? (previous.0, previous.1, previous.2 + 1)
                : previous.1 < 12 ? (previous.0, previous.1 + 1, 1) : (previous.0 + 1, 1, 1)
            #expect(date == expected, "day \(day)")
            if date != expected { return }
            previous = date
        }
    }
}
