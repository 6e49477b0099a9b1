import Foundation
import Ingest
import MediaFixtures
import MediaModel
import TestTraits
import Testing

/// Every reason code, each with a fixture generated for it.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct AdmissionPolicyTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private func clip(_ name: String, _ configure: (inout SyntheticVideo) -> Void = { _ in }) throws -> String {
        var video = SyntheticVideo(width: 180, height: 320, seconds: 1.5)
        configure(&video)
        let path = directory.file(name)
        try video.write(to: path)
        return path
    }

    private func rejection(_ path: String, limits: AdmissionLimits = .default) -> Rejection? {
        do {
            _ = try AdmissionPolicy(limits: limits).check(path: path)
            return nil
        } catch {
            return error
        }
    }

    private func limits(_ change: (inout AdmissionLimits) -> Void) -> AdmissionLimits {
        var limits = AdmissionLimits.default
        change(&limits)
        return limits
    }

    @Test func acceptsAPhoneStyleClip() throws {
        let admitted = try AdmissionPolicy().check(path: try clip("ok.mp4"))
        #expect(admitted.info.kind == .video)
        #expect(admitted.info.video?.displayWidth == 180)
        #expect(admitted.info.audio?.sampleRate == 48_000)
    }

    @Test func rejectsEmptyFile() throws {
        #expect(rejection(try directory.write("empty.mp4", []))?.reason == .emptyFile)
    }

    @Test func rejectsOversizedVideoNamingBothSizes() throws {
        let found = rejection(try clip("big.mp4"), limits: limits { $0.video.maxBytes = 1000 })
        #expect(found?.reason == .tooLarge)
        #expect(found?.message.contains("limit is 0.0 MB") == true || found?.message.contains("limit is") == true)
    }

    @Test func rejectsOversizedImage() throws {
        let png = try directory.write("big.png", try SyntheticImage.png(width: 64, height: 64, alpha: false))
        #expect(rejection(png, limits: limits { $0.image.maxBytes = 100 })?.reason == .tooLarge)
    }

    @Test func rejectsSymlinkFifoAndDirectory() throws {
        let target = try clip("real.mp4")
        let link = directory.file("link.mp4")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(rejection(link)?.reason == .notRegularFile)
        let fifo = directory.file("fifo.mp4")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(rejection(fifo)?.reason == .notRegularFile)
        let folder = directory.file("folder.mp4")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(rejection(folder)?.reason == .notRegularFile)
    }

    @Test func rejectsTextAndRandomBytesAsUnsupported() throws {
        #expect(rejection(try directory.write("notes.mp4", text: "just some notes\n"))?.reason == .unsupportedFormat)
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let noisy = [UInt8](arrayLiteral: 0x00, 0x13, 0x37) + noise
        #expect(rejection(try directory.write("noise.mp4", noisy))?.reason == .unsupportedFormat)
    }

    @Test func rejectsPlaylistAndSVGDisguisedByName() throws {
        let playlist = try directory.write("clip.mp4", text: "#EXTM3U\n#EXTINF:1,\n/etc/passwd\n#EXT-X-ENDLIST\n")
        #expect(rejection(playlist)?.reason == .forbiddenFormat)
        let svg = try directory.write(
            "photo.png", text: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>")
        #expect(rejection(svg)?.reason == .forbiddenFormat)
    }

    @Test func rejectsFtypFollowedByGarbageAsProbeFailure() throws {
        let bytes: [UInt8] =
            [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
            + [UInt8](repeating: 0x5A, count: 4000)
        #expect(rejection(try directory.write("garbage.mp4", bytes))?.reason == .probeFailed)
    }

    @Test func rejectsVideoCutShort() throws {
        let path = try clip("whole.mp4")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = try directory.write("cut.mp4", Array(data.prefix(data.count / 2)))
        #expect(rejection(cut)?.reason == .truncated)
    }

    @Test func rejectsImageCutShort() throws {
        let png = try SyntheticImage.png(width: 64, height: 64, alpha: true)
        #expect(rejection(try directory.write("cut.png", Array(png.prefix(png.count - 20))))?.reason == .truncated)
        let jpeg = try SyntheticImage.jpeg(width: 64, height: 64)
        let cutJPEG = rejection(try directory.write("cut.jpg", Array(jpeg.prefix(jpeg.count / 2))))
        #expect(cutJPEG?.reason == .truncated, "\(String(describing: cutJPEG))")
    }

    @Test func rejectsPictureThatDoesNotDecode() throws {
        let broken = ImageFixtures.png(width: 64, height: 64, idat: [UInt8](repeating: 0xAB, count: 200))
        #expect(rejection(try directory.write("broken.png", broken))?.reason == .decodeError)
    }

    @Test func rejectsAudioOnlyFile() throws {
        let path = try clip("audio.mp4") { $0.includeVideo = false }
        #expect(rejection(path)?.reason == .noVideoStream)
    }

    @Test func rejectsVideoWiderThanTheLimit() throws {
        let found = rejection(try clip("wide.mp4"), limits: limits { $0.video.maxSide = 256 })
        #expect(found?.reason == .dimensionsExceedLimit)
        #expect(found?.message.contains("180x320") == true)
    }

    @Test func rejectsPixelBombFromItsHeaderAlone() throws {
        // 16000x16000 RGBA would be 1 GB decoded; the file is a few hundred bytes.
        let bomb = ImageFixtures.png(width: 16000, height: 16000, idat: [UInt8](repeating: 0, count: 300))
        let found = rejection(try directory.write("bomb.png", bomb))
        #expect(found?.reason == .pixelCountExceedsLimit)
        #expect(found?.message.contains("16000x16000") == true)
    }

    @Test func rejectsPixelBombWhoseSidesMultiplyPastAnInt() throws {
        // Two 32-bit sides: 4294967295 × 4294967295 passes Int.max, and the multiplication used to trap.
        let bomb = ImageFixtures.png(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF, idat: [UInt8](repeating: 0, count: 300))
        let path = try directory.write("overflow.png", bomb)
        let found = rejection(path, limits: limits { $0.image.maxSide = .max })
        #expect(found?.reason == .pixelCountExceedsLimit)
        #expect(found?.message.contains("4294967295x4294967295 = more than 9223372036854775807 pixels") == true)
        // Probing (no limits enforced) reads the same header without trapping either.
        _ = try? AdmissionPolicy().probe(path: path)
    }

    @Test func acceptsAClipWhenTheStreamLimitIsAsLargeAsAnInt() throws {
        // limits.json may say any positive max_streams; four times Int.max used to trap before libav was asked.
        let admitted = try AdmissionPolicy(limits: limits { $0.video.maxStreams = .max }).check(path: try clip("s.mp4"))
        #expect(admitted.info.kind == .video)
    }

    @Test func rejectsTooLongAndTooShortVideos() throws {
        let longer = limits {
            $0.video.maxDurationSeconds = 1
            $0.video.durationToleranceSeconds = 0
        }
        #expect(rejection(try clip("long.mp4"), limits: longer)?.reason == .durationExceedsLimit)
        #expect(rejection(try clip("short.mp4") { $0.seconds = 0.5 })?.reason == .durationBelowLimit)
    }

    @Test func rejectsFrameRateOverTheLimit() throws {
        let path = try clip("fast.mp4") { $0.frameRate = (60, 1) }
        #expect(rejection(path)?.reason == nil)
        #expect(rejection(path, limits: limits { $0.video.maxFrameRate = 30 })?.reason == .frameRateExceedsLimit)
    }

    @Test func rejectsTooManyStreams() throws {
        let found = rejection(try clip("two.mp4"), limits: limits { $0.video.maxStreams = 1 })
        #expect(found?.reason == .tooManyStreams)
    }
}
