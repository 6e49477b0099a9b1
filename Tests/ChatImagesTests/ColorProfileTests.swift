import Foundation
import MediaFixtures
import TestTraits
import Testing

@testable import ChatImages

/// ICC handling: wide-gamut profiles are kept on purpose, sRGB ones dropped, nothing else carried.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ColorProfileTests {
    /// A minimal ICC profile: 128-byte header, one `desc` tag holding `name` (v2 ASCII or v4 UTF-16BE).
    static func profile(named name: String, utf16: Bool = false) -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        let text = utf16 ? Array(name.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } : Array(name.utf8) + [0]
        let tag = Array((utf16 ? "mluc" : "desc").utf8) + [0, 0, 0, 0] + be32(text.count) + text
        let tagOffset = 128 + 4 + 12
        var bytes = be32(tagOffset + tag.count) + [UInt8](repeating: 0, count: 124)
        bytes += be32(1) + Array("desc".utf8) + be32(tagOffset) + be32(tag.count) + tag
        return bytes
    }

    /// Splices an APP2 ICC_PROFILE segment after the JPEG's SOI.
    static func jpeg(_ jpeg: [UInt8], icc: [UInt8]) -> [UInt8] {
        let payload = Array("ICC_PROFILE".utf8) + [0, 1, 1] + icc
        let length = payload.count + 2
        return Array(jpeg[0..<2]) + [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + Array(jpeg[2...])
    }

    @Test func recognisesSRGBInBothDescriptionEncodings() {
        #expect(ColorProfile.isSRGB(Self.profile(named: "sRGB IEC61966-2.1")))
        #expect(ColorProfile.isSRGB(Self.profile(named: "sRGB built-in", utf16: true)))
        #expect(!ColorProfile.isSRGB(Self.profile(named: "Display P3")))
        #expect(!ColorProfile.isSRGB(Self.profile(named: "Display P3", utf16: true)))
        #expect(ColorProfile.profileToKeep(Self.profile(named: "sRGB IEC61966-2.1")) == nil)
        #expect(ColorProfile.profileToKeep([1, 2, 3]) == nil)
    }

    /// The same profile with the header fields libpng checks before it accepts an iCCP chunk.
    static func checkedProfile(named name: String) -> [UInt8] {
        var bytes = profile(named: name)
        bytes.replaceSubrange(8..<12, with: [2, 0x10, 0, 0])  // version 2.1
        bytes.replaceSubrange(12..<24, with: Array("mntrRGB XYZ ".utf8))  // device class, colour space, PCS
        bytes.replaceSubrange(36..<40, with: Array("acsp".utf8))
        return bytes
    }

    /// Splices an iCCP chunk (the profile in a stored, uncompressed zlib stream) after the PNG's IHDR.
    static func png(_ png: [UInt8], icc: [UInt8]) -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in icc {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let length = UInt16(icc.count)
        let zlib: [UInt8] =
            [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            + icc + be32(b << 16 | a)
        let body = Array("iCCP".utf8) + Array("P3".utf8) + [0, 0] + zlib
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return Array(png[0..<33]) + be32(UInt32(body.count - 4)) + body + be32(~crc) + Array(png[33...])
    }

    @Test func wideGamutProfileOfAPNGIsKept() throws {
        let directory = try TemporaryDirectory()
        let p3 = Self.checkedProfile(named: "Display P3")
        let source = try directory.write(
            "p3.png", Self.png(try SyntheticPhoto(width: 32, height: 24).encoded(.png), icc: p3))
        _ = try ChatImageConverter().convert(source, to: directory.file("p3.webp"), quality: .high)
        let kept = try WebPFile(path: directory.file("p3.webp"))
        #expect(kept.chunkNames == ["VP8X", "ICCP", "VP8 "])
        #expect(kept.chunk("ICCP") == p3)
    }

    @Test func wideGamutProfileIsKeptAndSRGBDropped() throws {
        let directory = try TemporaryDirectory()
        let base = try SyntheticPhoto(width: 32, height: 24).jpeg()
        let p3 = Self.profile(named: "Display P3")
        let wide = try directory.write("p3.jpg", Self.jpeg(base, icc: p3))
        let srgb = try directory.write("srgb.jpg", Self.jpeg(base, icc: Self.profile(named: "sRGB IEC61966-2.1")))
        _ = try ChatImageConverter().convert(wide, to: directory.file("p3.webp"), quality: .high)
        _ = try ChatImageConverter().convert(srgb, to: directory.file("srgb.webp"), quality: .high)
        let kept = try WebPFile(path: directory.file("p3.webp"))
        #expect(kept.chunkNames == ["VP8X", "ICCP", "VP8 "])
        #expect(kept.chunk("ICCP") == p3)
        #expect(try WebPFile(path: directory.file("srgb.webp")).chunkNames == ["VP8 "])
    }
}
