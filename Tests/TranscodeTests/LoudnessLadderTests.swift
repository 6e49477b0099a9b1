import Foundation
import MediaFixtures
import MediaModel
import TestTraits
import Testing

@testable import Transcode

/// Issue 61: every rendition's audio reads -14 LUFS (within 1 LU) and at most -1 dBTP on ebur128, a meter Reel did
/// not write, after AAC encoding, whether the clip came in quiet, loud, as speech or as music; silence and clips
/// without audio are left alone; a clip that needs more than the maximum gain stops at it. Clips are made at test
/// time with the ffmpeg CLI's lavfi sources; judged on what the meter reads, never on how long anything took.
@Suite(.offThePool, .timeLimit(.minutes(15))) struct LoudnessLadderTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// Two rungs with the real ladder's lowest and highest AAC rates (64 and 128 kb/s: the lowest overshoots most).
    static var preset: LadderPreset {
        var preset = LadderPreset.default
        preset.contentAware = LadderPreset.fixedRates
        preset.rungs = [
            .init(id: "90p", shortSide: 90, crf: 28, maxBitrateKbps: 300, bufferKbits: 600, audioBitrateKbps: 64),
            .init(id: "180p", shortSide: 180, crf: 28, maxBitrateKbps: 600, bufferKbits: 1200, audioBitrateKbps: 128),
        ]
        preset.poster.rung = "180p"
        return preset
    }

    /// lavfi audio for each kind of clip; each source's own reading is checked too, so a clip that came out on
    /// target by accident would fail the test rather than pass it.
    static let clips: [String: String] = [
        // Pink noise near -30 LUFS: up by gain alone.
        "quiet": "anoisesrc=color=pink:amplitude=0.18:seed=1",
        // Pink noise pushed 9 dB over full scale, near -6 LUFS with true peaks above 0 dBTP: down by gain alone.
        // (White noise is no test of loudness after AAC: a 64 kb/s encoder cuts its top octaves, which K-weighting
        // counts, and took 2 LU off it; docs/hls.md.)
        "loud": "anoisesrc=color=pink:amplitude=1:seed=2,volume=9dB",
        // Band-passed noise in syllable-like bursts with pauses: a crest factor like speech's.
        "speech":
            "anoisesrc=color=pink:amplitude=1:seed=3,bandpass=f=800:width_type=q:w=0.7,"
            + "volume='if(lt(mod(t,1.3),0.8),0.6+0.4*sin(2*PI*5*t),0.01)':eval=frame",
        // A quiet chord over a loud kick drum and a hi-hat: peaks far above the loudness, so it is limited.
        "music":
            "aevalsrc='0.015*sin(2*PI*220*t)+0.0125*sin(2*PI*277.2*t)+0.01*sin(2*PI*329.6*t)"
            + "+0.3*exp(-14*mod(t,0.5))*sin(2*PI*70*t)+0.04*exp(-30*mod(t+0.25,0.5))*sin(2*PI*3000*t)'"
            + ":s=48000:c=stereo",
    ]

    func transcode(_ source: String, preset: LadderPreset = Self.preset) throws -> (TranscodeSummary, String) {
        let output = directory.file("ladder")
        return (try LadderTranscoder(preset: preset).run(source: source, output: output), output)
    }

    @Test(
        .enabled(if: LoudnessAnchor.isAvailable, "needs the ffmpeg CLI and ../shared/anchors/loudness.sh"),
        arguments: ["quiet", "loud", "speech", "music"])
    func everyRenditionReadsOnTargetOnAnIndependentMeter(clip: String) async throws {
        let source = directory.file("\(clip).mp4")
        try await LoudnessAnchor.makeClip(audio: Self.clips[clip], to: source)
        let before = try await LoudnessAnchor.measure(source)
        #expect(abs(before.lufs - -14) > 5, "the \(clip) source is already near the target: \(before)")
        let (summary, output) = try transcode(source)
        let loudness = try #require(summary.loudness)
        // libebur128 on the resampled audio and ebur128 on the AAC file agree on the source.
        let sourceLUFS = try #require(loudness.sourceLUFS)
        #expect(abs(sourceLUFS - before.lufs) < 0.5, "Reel read \(sourceLUFS) LUFS, ebur128 \(before)")
        // The gain to the target, or more where the limiter took loudness off with the peaks.
        if loudness.isLimited {
            #expect(loudness.gainDB >= -14 - sourceLUFS - 0.01)
        } else {
            #expect(abs(loudness.gainDB - (-14 - sourceLUFS)) < 0.01)
        }
        #expect(!loudness.isSilent && !loudness.isCapped)
        #expect(loudness.targetLUFS == -14 && loudness.truePeakCeilingDBTP == -1)
        if clip == "music" { #expect(loudness.isLimited) }
        for rendition in summary.renditions {
            let reading = try await LoudnessAnchor.measure(output + "/" + rendition.id)
            #expect(abs(reading.lufs - -14) <= 1, "\(clip) \(rendition.id): \(reading) (source \(before))")
            #expect(reading.truePeakDBTP <= -1, "\(clip) \(rendition.id): \(reading) (source \(before))")
        }
    }

    @Test(.enabled(if: LoudnessAnchor.isAvailable, "needs the ffmpeg CLI and ../shared/anchors/loudness.sh"))
    func silenceIsLeftAlone() async throws {
        let source = directory.file("silent.mp4")
        try await LoudnessAnchor.makeClip(audio: "anullsrc=r=48000:cl=stereo", to: source)
        let (summary, output) = try transcode(source)
        let loudness = try #require(summary.loudness)
        #expect(loudness.isSilent && loudness.gainDB == 0 && !loudness.isLimited && loudness.sourceLUFS == nil)
        for rendition in summary.renditions {
            let reading = try await LoudnessAnchor.measure(output + "/" + rendition.id)
            #expect(reading.lufs <= -70 && reading.truePeakDBTP == -.infinity, "\(rendition.id): \(reading)")
        }
    }

    /// A clip near -45 LUFS would need +31 dB: it gets the preset's +20 dB and says it stopped there.
    @Test(.enabled(if: LoudnessAnchor.isAvailable, "needs the ffmpeg CLI and ../shared/anchors/loudness.sh"))
    func aClipNeedingMoreThanTheMaximumGainStopsAtIt() async throws {
        let source = directory.file("whisper.mp4")
        try await LoudnessAnchor.makeClip(audio: "anoisesrc=color=pink:amplitude=0.03:seed=4", to: source)
        let before = try await LoudnessAnchor.measure(source)
        let (summary, output) = try transcode(source)
        let loudness = try #require(summary.loudness)
        #expect(loudness.isCapped && loudness.gainDB == 20, "\(loudness)")
        for rendition in summary.renditions {
            let reading = try await LoudnessAnchor.measure(output + "/" + rendition.id)
            #expect(abs(reading.lufs - (before.lufs + 20)) <= 1, "\(rendition.id): \(reading), source \(before)")
            #expect(reading.truePeakDBTP <= -1)
        }
    }

    /// The target and the maximum gain come from the preset.
    @Test(.enabled(if: LoudnessAnchor.isAvailable, "needs the ffmpeg CLI and ../shared/anchors/loudness.sh"))
    func theTargetComesFromThePreset() async throws {
        let source = directory.file("quiet.mp4")
        try await LoudnessAnchor.makeClip(audio: Self.clips["quiet"], to: source)
        var preset = Self.preset
        preset.loudness.targetLUFS = -20
        let (summary, output) = try transcode(source, preset: preset)
        #expect(summary.loudness?.targetLUFS == -20)
        for rendition in summary.renditions {
            let reading = try await LoudnessAnchor.measure(output + "/" + rendition.id)
            #expect(abs(reading.lufs - -20) <= 1, "\(rendition.id): \(reading)")
        }
    }

    @Test func aClipWithoutAudioHasNoLoudness() throws {
        var clip = SyntheticVideo(width: 180, height: 320, frameRate: (15, 1), seconds: 2)
        clip.audio = nil
        let source = directory.file("mute.mp4")
        try clip.write(to: source)
        let (summary, _) = try transcode(source)
        #expect(summary.loudness == nil)
    }

    @Test func turnedOffTheAudioIsNotMeasured() throws {
        let source = directory.file("tone.mp4")
        try SyntheticVideo(width: 180, height: 320, frameRate: (15, 1), seconds: 2).write(to: source)
        var preset = Self.preset
        preset.loudness.enabled = false
        let (summary, _) = try transcode(source, preset: preset)
        #expect(summary.loudness == nil)
    }
}
