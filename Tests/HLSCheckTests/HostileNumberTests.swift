import Foundation
import MediaFixtures
import TestTraits
import Testing

@testable import HLSCheck

/// `reel hls-check URL` reads numbers from a server someone else runs. Each of these once trapped the checker
/// (docs/traps.md); now each is a finding and the report is complete.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct HostileNumberTests {
    let temporary: TemporaryDirectory
    init() throws { temporary = try TemporaryDirectory() }

    /// Replaces the `index`-th EXTINF value of a rung's playlist.
    func setEXTINF(_ ladder: Ladder, rung: String = "90p", index: Int = 0, to value: String) throws {
        try ladder.edit("\(rung)/index.m3u8") { text in
            var seen = 0
            return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                guard line.hasPrefix("#EXTINF:") else { return String(line) }
                defer { seen += 1 }
                return seen == index ? "#EXTINF:\(value)," : String(line)
            }.joined(separator: "\n")
        }
    }

    @Test func infiniteAndHugeEXTINFsAreFindings() throws {
        let ladder = try Ladder.make(in: temporary)
        // Double("inf") reads; 1e300 is finite, but no Int holds it rounded.
        try setEXTINF(ladder, index: 0, to: "1e300")
        try setEXTINF(ladder, index: 1, to: "inf")
        let report = ladder.check(waiving: ["6.1"])
        let syntax = report.findings("RFC8216 4").filter { $0.file == "90p/index.m3u8" }
        #expect(syntax.contains { $0.message.contains("EXTINF duration 'inf' is not a number") }, "\(report.summary)")
        let rounded = report.findings("RFC8216 4.3.3.1").filter { $0.file == "90p/index.m3u8" }
        #expect(rounded.count == 1, "\(report.summary)")
        #expect(rounded.first?.message.contains("1e+300") == true, "\(report.summary)")
        #expect(!report.passed)
    }

    @Test func aTinyEXTINFMakesAPeakPastAnyIntAndIsReported() throws {
        let ladder = try Ladder.make(in: temporary)
        // bytes × 8 / 1e-300 is infinite.
        try setEXTINF(ladder, index: 0, to: "1e-300")
        let report = ladder.check(waiving: ["6.1"])
        let variant = try #require(report.variants.first { $0.playlist == "90p/index.m3u8" })
        #expect(variant.measuredPeak == Int.max)
        #expect(report.findings("1.27").contains { $0.message.contains("90p/index.m3u8") }, "\(report.summary)")
    }

    @Test func aByteRangeEndingPastInt64RunsPastItsResource() throws {
        let ladder = try Ladder.make(in: temporary)
        let huge = "9223372036854775807@9223372036854775807"
        try ladder.edit("90p/index.m3u8") { text in
            text.replacingOccurrences(of: "\nseg_000.m4s", with: "\n#EXT-X-BYTERANGE:\(huge)\nseg_000.m4s")
        }
        let report = ladder.check(waiving: ["6.1"])
        let found = report.findings("RFC8216 4.3.2.2")
        #expect(
            found.contains { $0.message.contains(huge) && $0.message.contains("runs past its end") },
            "\(report.summary)")
        #expect(!report.passed)
    }

    @Test func aDecodeTimeNearUInt64MaxIsAFinding() throws {
        let ladder = try Ladder.make(in: temporary)
        var bytes = try ladder.bytes("90p/seg_001.m4s")
        let tfdt = Array("tfdt".utf8)
        let at = try #require(
            (0..<(bytes.count - 16)).first { Array(bytes[$0..<$0 + 4]) == tfdt }, "no tfdt in seg_001.m4s")
        try #require(bytes[at + 4] == 1, "a version 1 tfdt (64-bit decode time)")
        for index in 0..<8 { bytes[at + 8 + index] = index < 7 ? 0xFF : 0xF0 }
        try ladder.write("90p/seg_001.m4s", bytes: bytes)
        let report = ladder.check(waiving: ["6.1"])
        let found = report.findings("7.3").filter { $0.file.hasPrefix("90p/") }
        #expect(found.contains { $0.message.contains("does not fit in 64 bits") }, "\(report.summary)")
        #expect(!report.passed)
    }
}
