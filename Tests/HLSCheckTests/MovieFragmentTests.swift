import Testing

@testable import HLSCheck

/// A 'moof' from someone else's server is read down to its samples without trusting what its boxes claim.
@Suite(.timeLimit(.minutes(1))) struct MovieFragmentTests {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    static func be64(_ value: UInt64) -> [UInt8] { be32(UInt32(value >> 32)) + be32(UInt32(truncatingIfNeeded: value)) }

    /// tfhd for track 1 with `flags`, then its fields.
    static func tfhd(flags: UInt32, _ fields: [UInt8] = []) -> [UInt8] { box("tfhd", be32(flags) + be32(1) + fields) }
    /// trun with `count` samples of the default size and `flags` (0x01: a data offset follows).
    static func trun(count: UInt32, flags: UInt32 = 0, _ fields: [UInt8] = []) -> [UInt8] {
        box("trun", be32(flags) + be32(count) + fields)
    }

    static func moof(_ traf: [UInt8]...) -> [UInt8] { box("moof", traf.flatMap { box("traf", $0) }) }

    @Test func samplesLieEndToEndFromTheRunsDataOffset() throws {
        let bytes = Self.moof(Self.tfhd(flags: 0x10, Self.be32(100)) + Self.trun(count: 3, flags: 0x01, Self.be32(40)))
        let fragment = try MovieFragment.parse(bytes, at: 1000, defaults: [:])
        #expect(fragment.tracks.first?.samples.map(\.offset) == [1040, 1140, 1240])
    }

    /// A base_data_offset of 2^63-1 plus a data offset trapped on `Int64` overflow: found by the mp4 fuzz target's
    /// contract, it would end `reel hls-check` on a hostile segment.
    @Test func aDataOffsetPastInt64IsAParseError() {
        let bytes = Self.moof(
            Self.tfhd(flags: 0x01, Self.be64(UInt64(Int64.max))) + Self.trun(count: 1, flags: 0x01, Self.be32(16)))
        #expect(throws: MediaParseError.self) { try MovieFragment.parse(bytes, at: 0, defaults: [:]) }
    }

    @Test func samplesOfDefaultSizePastInt64AreAParseError() {
        let bytes = Self.moof(
            Self.tfhd(flags: 0x01 | 0x10, Self.be64(UInt64(Int64.max) - 10) + Self.be32(UInt32.max))
                + Self.trun(count: 2))
        #expect(throws: MediaParseError.self) { try MovieFragment.parse(bytes, at: 0, defaults: [:]) }
    }

    /// Each run under the limit, but together over it: a few hundred bytes asked for tens of millions of samples.
    @Test func runsThatTogetherClaimMoreThanTheLimitAreAParseError() throws {
        let half = MovieFragment.sampleLimit / 2 + 1
        let bytes = Self.moof(Self.tfhd(flags: 0) + Self.trun(count: half) + Self.trun(count: half))
        let error = try #require(throws: MediaParseError.self) { try MovieFragment.parse(bytes, at: 0, defaults: [:]) }
        #expect(error.description.contains("at most \(MovieFragment.sampleLimit)"))
        let under = Self.moof(Self.tfhd(flags: 0) + Self.trun(count: half - 1) + Self.trun(count: half - 1))
        #expect(try MovieFragment.parse(under, at: 0, defaults: [:]).tracks[0].samples.count == Int(half - 1) * 2)
    }
}
