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

    /// A HEIF box tree (ftyp, then meta/iprp/ipco holding `property`), as a hostile upload can write it.
    static func heif(_ property: [UInt8]) -> [UInt8] {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                + Array(type.utf8) + payload
        }
        return box("ftyp", Array("heic".utf8) + [0, 0, 0, 0])
            + box("meta", [0, 0, 0, 0] + box("iprp", box("ipco", property)))
    }

    /// Seen reading the HEIF box walk while writing the image-header fuzz target: an `ispe` of 2^32-1 by 2^32-1
    /// multiplied past Int.max and trapped. Now it reads as the size it claims, which admission's pixel limit refuses.
    @Test func aHEIFSizeOfTwoHugeSidesReadsWithoutOverflowing() throws {
        let ispe: [UInt8] =
            [0, 0, 0, 20] + Array("ispe".utf8) + [0, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let header = try #require(ImageHeader.readHEIF(Self.heif(ispe)))
        #expect(header.width == 4_294_967_295 && header.height == 4_294_967_295)
    }

    /// A box whose 64-bit size claims 2^63-1 bytes ends past any data (Int.max) and ends the walk: at offset 0 the
    /// next offset then overflowed, and after other boxes adding the size to its offset did. The HEIF reads as cut
    /// short.
    @Test func aBoxClaimingTwoToTheSixtyThreeBytesEndsTheWalk() throws {
        let huge: [UInt8] = [0, 0, 0, 1] + Array("free".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let boxes = ImageHeader.isoBoxes(huge + huge, from: 0, to: 2 * huge.count)
        #expect(boxes.map(\.end) == [Int.max], "\(boxes)")
        let ispe: [UInt8] = [0, 0, 0, 20] + Array("ispe".utf8) + [0, 0, 0, 0] + [0, 0, 0, 64, 0, 0, 0, 48]
        let header = try #require(ImageHeader.readHEIF(Self.heif(ispe) + huge))
        #expect(header.width == 64 && header.height == 48 && !header.isComplete)
    }

    /// Found by the image-header fuzz target's seeded mutations (FuzzCorpusReplayTests): a lossy WebP whose frame
    /// header gives a side of 0 read as a complete 0xN picture. It is malformed, and says so.
    @Test func aLossyWebPWithASideOfZeroIsMalformed() throws {
        var webp = Array(try Data(contentsOf: FuzzSeeds.tinyWebP))
        let chunk = try #require((12..<webp.count - 4).first { webp[$0..<$0 + 4].elementsEqual("VP8 ".utf8) })
        #expect(ImageHeader.readWebP(webp)?.width == 8)
        webp[chunk + 8 + 6] = 0
        webp[chunk + 8 + 7] = 0
        #expect(ImageHeader.readWebP(webp) == nil)
    }

    /// Found by the image-header fuzz target (libFuzzer, 2026-12-02; Fuzz/Regressions/image-header/png-*): PNGs
    /// whose IHDR gave a side of 0 read as complete pictures. A side past 2^31 - 1 still reads: admission then names
    /// the pixel limit it breaks (AdmissionPolicyTests).
    @Test(arguments: [(8, 8, true), (8, 0, false), (0, 8, false), (0, 0, false), (0xFFFF_FFFF, 1, true)])
    func aPNGWithASideOfZeroIsMalformed(width: Int, height: Int, reads: Bool) {
        func bigEndian(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        // Signature, IHDR (8-bit RGB), IEND; the reader does not check CRCs, so theirs are zeros.
        let ihdr = bigEndian(13) + Array("IHDR".utf8) + bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        let png =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + ihdr + [0, 0, 0, 0] + bigEndian(0)
            + Array("IEND".utf8) + [0, 0, 0, 0]
        let header = ImageHeader.readPNG(png)
        #expect((header != nil) == reads)
        if reads {
            #expect(header?.width == width && header?.height == height && header?.isComplete == true)
        }
    }

    /// Found by the image-header fuzz target (libFuzzer, 2026-12-03; Fuzz/Regressions/image-header/jpeg-exif-*): a
    /// JPEG whose APP1 segment is shorter than its "Exif\0\0" name, which then lay in the bytes after it, trapped on
    /// a backwards range. Such a segment is no EXIF: the header reads at orientation 1, with the frame after it.
    @Test(arguments: 2...9)
    func anAPP1ShorterThanItsExifNameIsNoExif(length: Int) throws {
        // TIFF data with one IFD0 entry, Orientation 6.
        let entry: [UInt8] = [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0]
        let tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1] + entry + [0, 0, 0, 0]
        let named = Array("Exif\0\0".utf8) + tiff
        // APP1 of `length` (its two length bytes included), holding the first length - 2 bytes of the name and data;
        // the rest follows as bytes before the next marker would.
        let app1: [UInt8] = [0xFF, 0xE1, 0, UInt8(length)] + named
        let frame: [UInt8] = [0xFF, 0xC0, 0, 11, 8, 0, 16, 0, 24, 1, 1, 0x11, 0]
        let jpeg: [UInt8] = [0xFF, 0xD8] + app1.prefix(2 + length) + frame + [0xFF, 0xD9]
        let header = try #require(ImageHeader.readJPEG(jpeg), "length \(length)")
        #expect(header.width == 24 && header.height == 16 && header.orientation == 1)
        // Read with the name cut and the rest of the bytes after it, as the fuzzer made them: no trap.
        _ = ImageHeader.readJPEG([0xFF, 0xD8] + app1 + frame + [0xFF, 0xD9])
        // A whole EXIF segment still gives its orientation.
        let whole: [UInt8] = [0xFF, 0xE1, 0, UInt8(2 + named.count)] + named
        #expect(ImageHeader.readJPEG([0xFF, 0xD8] + whole + frame + [0xFF, 0xD9])?.orientation == 6)
    }

    /// Found by the image-header fuzz target (libFuzzer, 2026-12-02; Fuzz/Regressions/image-header): a TIFF whose
    /// ImageLength is 0 read as a complete 8x0 picture. A side of 0 is malformed in TIFF too.
    @Test func aTIFFWithASideOfZeroIsMalformed() {
        // Little-endian, IFD0 at 8: ImageWidth 8, ImageLength 0 or 4, StripOffsets 62 (just after the IFD), StripByteCounts 4.
        func tiff(height: UInt8) -> [UInt8] {
            let entries: [[UInt8]] = [
                [0x00, 0x01, 3, 0, 1, 0, 0, 0, 8, 0, 0, 0], [0x01, 0x01, 3, 0, 1, 0, 0, 0, height, 0, 0, 0],
                [0x11, 0x01, 4, 0, 1, 0, 0, 0, 62, 0, 0, 0], [0x17, 0x01, 4, 0, 1, 0, 0, 0, 4, 0, 0, 0],
            ]
            let ifd: [UInt8] = [4, 0] + entries.flatMap { $0 } + [0, 0, 0, 0]
            return Array("II".utf8) + [42, 0, 8, 0, 0, 0] + ifd + [0, 0, 0, 0]
        }
        #expect(ImageHeader.readTIFF(tiff(height: 4))?.height == 4)
        #expect(ImageHeader.readTIFF(tiff(height: 0)) == nil)
    }
}

/// The image-header fuzz target's seed files (Fuzz/Corpus/image-header), made by ffmpeg from testsrc2.
enum FuzzSeeds {
    static let tinyWebP = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/image-header/tiny.webp")
}
