import Foundation
import MediaFixtures
import TestTraits
import Testing

@testable import Ingest

/// Header facts read before any decode, from files built the way the quirks in docs/quirks.md describe.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ImageHeaderTests {
    /// APP2 `ICC_PROFILE` segments carry their sequence number; here they appear in the file last chunk first.
    @Test func iccProfileSplitAcrossAPP2ChunksIsReassembledInOrder() throws {
        let profile = (0..<300).map { UInt8($0 % 251) }
        let chunks = stride(from: 0, to: profile.count, by: 100).map {
            Array(profile[$0..<min($0 + 100, profile.count)])
        }
        var segments: [UInt8] = []
        for (index, chunk) in chunks.enumerated().reversed() {
            let payload = Array("ICC_PROFILE".utf8) + [0, UInt8(index + 1), UInt8(chunks.count)] + chunk
            segments += [0xFF, 0xE2, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        let jpeg = try SyntheticImage.jpeg(width: 32, height: 24)
        let header = try #require(ImageHeader.readJPEG(Array(jpeg[0..<2]) + segments + Array(jpeg[2...])))
        #expect(header.width == 32 && header.height == 24)
        #expect(header.iccProfile == profile)
    }

    /// Bytes after the boxes that spell an `ispe` property of 16000x16000 are data, not a property.
    @Test func heifSizeComesFromTheBoxTreeNotFromBytesThatLookLikeABox() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("photo.heic")
        try SyntheticPhoto(width: 64, height: 48).writeHEIC(to: path)
        let heic = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let fake: [UInt8] = [0, 0, 0, 20] + Array("ispe".utf8) + [0, 0, 0, 0] + [0, 0, 0x3E, 0x80, 0, 0, 0x3E, 0x80]
        let mdat: [UInt8] = [0, 0, 0, UInt8(8 + fake.count)] + Array("mdat".utf8) + fake
        let plain = try #require(ImageHeader.readHEIF(heic))
        let padded = try #require(ImageHeader.readHEIF(heic + mdat))
        // libheif's ispe is the coded size (64x64 for this 64x48 picture): a bound, which the fake must not raise.
        #expect(plain.width == 64 && (48...64).contains(plain.height))
        #expect(padded.width == plain.width && padded.height == plain.height)
    }
}
