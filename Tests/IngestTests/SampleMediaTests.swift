import Foundation
import Ingest
import MediaModel
import TestTraits
import Testing

/// The committed samples that `make demo` uses are real phone-style media; probe must read each one right.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct SampleMediaTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleMedia")

    func admit(_ name: String) throws -> MediaInfo {
        try AdmissionPolicy().check(path: Self.folder.appendingPathComponent(name).path).info
    }

    @Test func samplesStayUnderFiveMegabytes() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
        let total = try names.reduce(0) { sum, name in
            let attributes = try FileManager.default.attributesOfItem(
                atPath: Self.folder.appendingPathComponent(name).path)
            return sum + ((attributes[.size] as? Int) ?? 0)
        }
        #expect(names.count >= 5)
        #expect(total <= 5_000_000, "SampleMedia holds \(total) bytes")
    }

    @Test func verticalClipIsFullHDPortraitOfAtLeastFifteenSeconds() throws {
        let info = try admit("vertical-1080x1920-16s.mp4")
        #expect(info.video?.displayWidth == 1080 && info.video?.displayHeight == 1920)
        #expect((info.durationSeconds ?? 0) >= 15)
        #expect(info.audio?.channels == 2)
    }

    @Test func rotatedClipDisplaysUpright() throws {
        let video = try #require(try admit("rotated-90-640x360.mp4").video)
        #expect(video.rotation == 90)
        #expect(video.displayWidth == 360 && video.displayHeight == 640)
    }

    @Test func landscapeClipHasMonoAudio() throws {
        let info = try admit("landscape-1280x720-mono.mp4")
        #expect(info.video?.displayWidth == 1280 && info.video?.displayHeight == 720)
        #expect(info.audio?.channels == 1 && info.audio?.sampleRate == 44_100)
    }

    @Test func photoCarriesOrientationSix() throws {
        let image = try #require(try admit("photo-exif-orientation-6.jpg").image)
        #expect(image.orientation == 6)
        #expect(image.displayWidth == 1200 && image.displayHeight == 1600)
    }

    @Test func stickerHasAlpha() throws {
        #expect(try admit("sticker-alpha-800x800.png").image?.hasAlpha == true)
    }
}
