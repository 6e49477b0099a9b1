import Ingest
import MediaFixtures
import TestTraits
import Testing

@testable import Transcode

/// The pre-pass reads the audio stream alone, resampled as the ladder resamples it, and keeps it for the gain's
/// refinement only up to its limit.
@Suite(.offThePool, .timeLimit(.minutes(3))) struct LoudnessPrePassTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    func measure(_ pass: LoudnessPrePass, seconds: Double = 3) throws -> LoudnessPrePass.Measurement {
        let source = directory.file("tone.mp4")
        try SyntheticVideo(width: 160, height: 90, seconds: seconds).write(to: source)
        let admitted = try AdmissionPolicy().admitVideo(path: source)
        let audioIndex = try #require(try LadderTranscoder.openStreams(admitted).audio)
        return try pass.measure(admitted, audioIndex: audioIndex)
    }

    @Test func keepsTheResampledAudioAtTheLaddersFormat() throws {
        let measurement = try measure(LoudnessPrePass(audio: .init(sampleRate: 48_000, channels: 2)))
        #expect(measurement.audio.count == 2)
        // 3 s at 48 kHz, give or take the encoder's last partial frame.
        #expect(abs(measurement.audio[0].count - 144_000) <= 1_024, "\(measurement.audio[0].count) samples")
        #expect(measurement.integratedLUFS.isFinite && measurement.integratedLUFS < 0)
        #expect(measurement.truePeakDBTP < 0 && measurement.truePeakDBTP > -20)
    }

    @Test func aTrackPastTheLimitIsMeasuredButNotKept() throws {
        let format = LadderPreset.Audio(sampleRate: 48_000, channels: 2)
        let whole = try measure(LoudnessPrePass(audio: format))
        var short = LoudnessPrePass(audio: format)
        short.keptSeconds = 1
        let dropped = try measure(short)
        #expect(dropped.audio.allSatisfy { $0.isEmpty })
        #expect(dropped.integratedLUFS == whole.integratedLUFS && dropped.truePeakDBTP == whole.truePeakDBTP)
    }

    @Test func monoIsMeasuredAsTheLadderMakesIt() throws {
        let measurement = try measure(LoudnessPrePass(audio: .init(sampleRate: 44_100, channels: 1)))
        #expect(measurement.audio.count == 1)
        #expect(abs(measurement.audio[0].count - 132_300) <= 1_024)
    }
}
