internal import FileSystem
internal import Foundation
internal import Ingest
internal import LibAV
internal import MediaModel

extension PlayableTranscoder {
    /// The ladder's lowest rung alone, through the ladder's own session (HDR converted to SDR, made upright,
    /// scaled, on the ladder's frame-rate clock and keyframe grid, its audio at the loudness gain of its first
    /// seconds, `PlayableLoudness`), at `firstRungX264Preset` into an `EVENT` playlist that libavformat rewrites
    /// (temporary file and rename) after each segment. `ready` is called once two segments are listed, and at the
    /// end.
    func firstRung(
        _ admitted: AdmittedVideo, scanned: PlayableScan.Scanned, rung: LadderPlan.Rung, reason: PlayablePlan.Reason,
        into directory: String, ready: (Report) throws -> Void, isCancelled: @Sendable () -> Bool
    ) throws -> Report {
        let (input, videoIndex, audioIndex) = (scanned.input, scanned.videoIndex, scanned.audioIndex)
        let stream = input.streams[videoIndex]
        var fast = preset
        fast.x264Preset = firstRungX264Preset
        fast.codecs = [.h264]
        // Shorter segments for this rung alone: a player starts on two, and each costs its seconds of decoding the
        // source (1080p60 10-bit HEVC at 1.8x real time on one core), so 1 s segments halve the time to playable. The
        // ladder that replaces it keeps its own.
        fast.segmentSeconds = min(preset.segmentSeconds, Self.firstRungSegmentSeconds)
        fast.keyframeIntervalSeconds = min(preset.keyframeIntervalSeconds, Self.firstRungSegmentSeconds)
        var plan = LadderPlanner(preset: fast).plan(
            .init(
                width: stream.width, height: stream.height, rotation: stream.rotation,
                averageFrameRate: stream.averageFrameRate.doubleValue, realFrameRate: stream.realFrameRate.doubleValue
            ))
        plan.rungs = [rung]
        plan.codecs = [.h264]
        let loudness = try PlayableLoudness.plan(
            admitted, audioIndex: audioIndex, preset: preset, bitrateKbps: rung.audioBitrateKbps)
        let converter = try HDRConverter.make(for: admitted)
        let session = try LadderSession(
            input: input, videoIndex: videoIndex, audioIndex: audioIndex, plan: plan, preset: fast,
            destination: { rung, _ in .hlsEvent(directory: directory + "/" + rung.id) }, limits: admitted.limits,
            threads: encoderThreads, converter: converter, provisional: true)
        session.normalizeLoudness(loudness)
        let duration = admitted.info.durationSeconds ?? 0
        // While it grows, BANDWIDTH is the rung's cap (VBV max rate and its audio): no segment measured yet can
        // promise the peak of those still to come.
        let cap = (rung.maxBitrateKbps + (audioIndex == nil ? 0 : rung.audioBitrateKbps)) * 1000
        let frameRate = plan.frameRateValue
        var announced = false
        var failure: (any Error)?
        func announce(complete: Bool) throws -> Report {
            var rendition = try Self.rendition(id: rung.id, rung: rung, directory: directory, cap: complete ? nil : cap)
            rendition.frames = session.outputs[0].framesEncoded
            rendition.crf = rung.crf
            if !announced {
                _ = try session.writePosters(jpeg: directory + "/poster.jpg", webp: directory + "/poster.webp")
            }
            try Self.writeMaster(
                [rendition], directory: directory, frameRate: frameRate, complete: complete, type: .event)
            announced = true
            let report = Report(
                mode: .firstRung, reason: reason, audio: audioIndex == nil ? .none : .encoded,
                durationSeconds: duration, renditions: [rendition],
                complete: complete)
            try ready(report)
            return report
        }
        let playlist = directory + "/" + rung.id + "/index.m3u8"
        _ = try session.run(duration: duration, isCancelled: isCancelled) { _ in
            guard !announced, failure == nil, Self.segmentCount(playlist) >= 2 else { return }
            do { _ = try announce(complete: false) } catch { failure = error }
        }
        if let failure { throw failure }
        return try announce(complete: true)
    }

    /// The first rung's segment length (and keyframe interval), in seconds.
    static let firstRungSegmentSeconds = 1.0

    /// The segments a media playlist lists now (0 before the muxer first writes it).
    static func segmentCount(_ playlist: String) -> Int {
        guard let bytes = try? ReadOnlyFile.contents(of: playlist) else { return 0 }
        return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            .filter { $0.hasPrefix("#EXTINF:") }.count
    }
}
