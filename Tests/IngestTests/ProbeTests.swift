import Foundation
import Ingest
import MediaFixtures
import MediaModel
import TestTraits
import Testing

/// `reel probe` must report what a phone clip really is: display size after rotation, true frame rate, bit depth.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ProbeTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private func probe(_ name: String, _ video: SyntheticVideo) throws -> MediaInfo {
        let path = directory.file(name)
        try video.write(to: path)
        return try AdmissionPolicy().probe(path: path)
    }

    @Test(arguments: [90, 180, 270])
    func rotatedClipReportsUprightDisplaySize(degrees: Int) throws {
        var video = SyntheticVideo(width: 320, height: 180, seconds: 1)
        video.rotation = degrees
        let info = try probe("rotated-\(degrees).mp4", video)
        let stream = try #require(info.video)
        #expect(stream.rotation == degrees)
        #expect(stream.codedWidth == 320 && stream.codedHeight == 180)
        let swapped = degrees % 180 == 90
        #expect(stream.displayWidth == (swapped ? 180 : 320))
        #expect(stream.displayHeight == (swapped ? 320 : 180))
    }

    @Test func verticalClipHasItsDurationFrameRateAndAudio() throws {
        let info = try probe("vertical.mp4", SyntheticVideo(width: 180, height: 320, frameRate: (30, 1), seconds: 2))
        #expect(info.kind == .video)
        #expect(info.container == "mp4")
        let duration = try #require(info.durationSeconds)
        #expect(abs(duration - 2) < 0.1)
        let stream = try #require(info.video)
        #expect(stream.codec == "h264")
        #expect(stream.rotation == 0)
        #expect(abs(stream.averageFrameRate - 30) < 0.01)
        #expect(stream.isVariableFrameRate == false)
        #expect(stream.frameCount == 60)
        #expect(stream.bitDepth == 8)
        let audio = try #require(info.audio)
        #expect(audio.codec == "aac" && audio.channels == 2 && audio.sampleRate == 48_000)
    }

    @Test func sixtyFrameRateIsReported() throws {
        let info = try probe("sixty.mp4", SyntheticVideo(width: 160, height: 90, frameRate: (60, 1), seconds: 1))
        let stream = try #require(info.video)
        #expect(abs(stream.averageFrameRate - 60) < 0.01)
        #expect(abs(stream.realFrameRate - 60) < 0.01)
    }

    @Test func variableFrameRateIsFlagged() throws {
        var video = SyntheticVideo(width: 160, height: 90, frameRate: (30, 1), seconds: 2)
        video.variableFrameRate = true
        let stream = try #require(try probe("vfr.mp4", video).video)
        #expect(stream.isVariableFrameRate)
    }

    @Test func tenBitHEVCReportsDepthAndProfile() throws {
        var video = SyntheticVideo(width: 192, height: 108, seconds: 1)
        video.codec = "libx265"
        video.tenBit = true
        let stream = try #require(try probe("hevc10.mp4", video).video)
        #expect(stream.codec == "hevc")
        #expect(stream.bitDepth == 10)
        #expect(stream.profile == "Main 10")
        #expect(stream.pixelFormat == "yuv420p10le")
    }

    @Test func clipWithoutAudioHasNoAudioSection() throws {
        var video = SyntheticVideo(width: 160, height: 90, seconds: 1)
        video.audio = nil
        let info = try probe("silent.mkv", video)
        #expect(info.audio == nil)
        #expect(info.streamCount == 1)
        #expect(info.video != nil)
    }

    @Test func jpegOrientationSwapsDisplaySize() throws {
        let jpeg = SyntheticImage.jpeg(try SyntheticImage.jpeg(width: 64, height: 32), exifOrientation: 6)
        let info = try AdmissionPolicy().probe(path: try directory.write("portrait.jpg", jpeg))
        let image = try #require(info.image)
        #expect(info.kind == .image)
        #expect(image.format == "jpeg")
        #expect(image.width == 64 && image.height == 32)
        #expect(image.orientation == 6)
        #expect(image.displayWidth == 32 && image.displayHeight == 64)
        #expect(image.hasAlpha == false)
    }

    @Test func pngAlphaIsReported() throws {
        let withAlpha = try AdmissionPolicy().probe(
            path: try directory.write("a.png", try SyntheticImage.png(width: 20, height: 10, alpha: true)))
        let opaque = try AdmissionPolicy().probe(
            path: try directory.write("b.png", try SyntheticImage.png(width: 20, height: 10, alpha: false)))
        #expect(withAlpha.image?.hasAlpha == true)
        #expect(opaque.image?.hasAlpha == false)
        #expect(withAlpha.image?.frameCount == 1)
    }
}
