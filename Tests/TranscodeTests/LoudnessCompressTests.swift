import Foundation
import MediaFixtures
import MediaModel
import TestTraits
import Testing

@testable import Transcode

/// Issue 61 for `reel compress`: a file that already fits its tier is only remuxed when its audio is on the
/// loudness target; off target, it is encoded and its audio brought to the target like a ladder's.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct LoudnessCompressTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test(.enabled(if: LoudnessAnchor.isAvailable, "needs the ffmpeg CLI and ../shared/anchors/loudness.sh"))
    func aFittingFileWithLoudAudioIsEncodedOnTarget() async throws {
        let source = directory.file("loud.mp4")
        try await LoudnessAnchor.makeClip(audio: LoudnessLadderTests.clips["loud"], to: source)
        let output = directory.file("out.mp4")
        let summary = try VideoCompressor(preset: VideoCompressorTests.small).run(
            source: source, output: output, quality: .medium)
        #expect(summary.mode == .transcode)
        let loudness = try #require(summary.loudness)
        #expect(loudness.gainDB < -5)
        let reading = try await LoudnessAnchor.measure(output)
        #expect(abs(reading.lufs - -14) <= 1 && reading.truePeakDBTP <= -1, "\(reading)")
    }

    @Test(.enabled(if: LoudnessAnchor.isAvailable, "needs the ffmpeg CLI and ../shared/anchors/loudness.sh"))
    func aFittingFileOnTargetIsOnlyRemuxed() async throws {
        let source = directory.file("ontarget.mp4")
        // The quiet clip's pink noise raised to about -14 LUFS, its true peak near -4 dBTP.
        try await LoudnessAnchor.makeClip(audio: LoudnessLadderTests.clips["quiet"]! + ",volume=15.9dB", to: source)
        let before = try await LoudnessAnchor.measure(source)
        try #require(abs(before.lufs - -14) < 0.5 && before.truePeakDBTP < -1, "the source is off target: \(before)")
        let output = directory.file("out.mp4")
        let summary = try VideoCompressor(preset: VideoCompressorTests.small).run(
            source: source, output: output, quality: .medium)
        #expect(summary.mode == .remux)
        #expect(summary.loudness?.gainDB == 0 && summary.loudness?.isLimited == false)
        let after = try await LoudnessAnchor.measure(output)
        #expect(abs(after.lufs - before.lufs) < 0.05, "remuxed audio changed: \(before) -> \(after)")
    }
}
