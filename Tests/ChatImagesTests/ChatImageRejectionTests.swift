import ChatImages
import Foundation
import Ingest
import MediaFixtures
import MediaModel
import TestTraits
import Testing

/// Every way a chat image is refused, and that a refusal writes nothing.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ChatImageRejectionTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    func reason(_ name: String, _ bytes: [UInt8], limits: AdmissionLimits = .default) throws -> RejectionReason? {
        let source = try directory.write(name, bytes)
        let output = directory.file(name + ".webp")
        defer { #expect(!FileManager.default.fileExists(atPath: output), "a refused image left \(output)") }
        do {
            _ = try ChatImageConverter(policy: AdmissionPolicy(limits: limits)).convert(
                source, to: output, quality: .high)
            return nil
        } catch {
            #expect(error.path == source)
            #expect(!error.message.isEmpty)
            return error.rejection?.reason
        }
    }

    func png(width: Int, height: Int) -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            be32(data.count) + Array(type.utf8) + data + [0, 0, 0, 0]
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
            + chunk("IDAT", [UInt8](repeating: 0, count: 48_000)) + chunk("IEND", [])
    }

    @Test func oversizedFileIsTooLarge() throws {
        var limits = AdmissionLimits.default
        limits.image.maxBytes = 1000
        #expect(try reason("big.jpg", try SyntheticPhoto(width: 200, height: 200).jpeg(), limits: limits) == .tooLarge)
    }

    @Test func declaredGiantPNGIsRefusedFromItsHeader() throws {
        #expect(try reason("bomb.png", png(width: 20000, height: 20000)) == .pixelCountExceedsLimit)
    }

    @Test func truncatedJPEGAndPNGAreRefused() throws {
        let jpeg = try SyntheticPhoto(width: 300, height: 200).jpeg()
        #expect(try reason("cut.jpg", Array(jpeg.prefix(jpeg.count * 2 / 3))) == .truncated)
        let png = try SyntheticPhoto(width: 300, height: 200).encoded(.png)
        #expect(try reason("cut.png", Array(png.prefix(png.count / 2))) == .truncated)
    }

    @Test func corruptJPEGBodyIsADecodeError() throws {
        var jpeg = try SyntheticPhoto(width: 64, height: 64).jpeg()
        // Keep the headers and the end marker; replace the entropy-coded data with marker garbage.
        let start = jpeg.count / 2
        for i in start..<(jpeg.count - 2) { jpeg[i] = i % 2 == 0 ? 0xFF : 0xC4 }
        let found = try reason("corrupt.jpg", jpeg)
        #expect(found == .decodeError || found == .truncated)
    }

    @Test func svgTextAndNoiseAreRefused() throws {
        #expect(
            try reason(
                "logo.svg",
                Array(#"<svg xmlns="http://www.w3.org/2000/svg"><image href="file:///etc/passwd"/></svg>"#.utf8))
                == .forbiddenFormat)
        #expect(try reason("notes.jpg", Array("hello, this is text\n".utf8)) == .unsupportedFormat)
        var generator = SystemRandomNumberGenerator()
        #expect(
            try reason("noise.png", (0..<4096).map { _ in UInt8.random(in: 1...255, using: &generator) })
                == .unsupportedFormat)
    }

    @Test func emptyFileAndSymlinkAreRefused() throws {
        #expect(try reason("empty.png", []) == .emptyFile)
        let target = try directory.write("real.png", try SyntheticPhoto(width: 8, height: 8).encoded(.png))
        let link = directory.file("link.png")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        do {
            _ = try ChatImageConverter().convert(link, to: directory.file("link.webp"), quality: .high)
            Issue.record("a symlink was converted")
        } catch {
            #expect(error.rejection?.reason == .notRegularFile)
        }
    }

    @Test func videoIsNotAChatImage() throws {
        let path = directory.file("clip.mp4")
        try SyntheticVideo(width: 64, height: 64, seconds: 1).write(to: path)
        do {
            _ = try ChatImageConverter().convert(path, to: directory.file("clip.webp"), quality: .high)
            Issue.record("a video was converted")
        } catch {
            #expect(error.rejection?.reason == .unsupportedFormat)
        }
    }
}
