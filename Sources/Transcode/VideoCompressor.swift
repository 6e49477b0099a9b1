internal import FileSystem
internal import Foundation
package import Ingest
internal import LibAV
internal import Loudness
package import MediaModel

/// `reel compress`: one progressive MP4 (moov first) at the design's tiers, through the ladder's pipeline.
/// Small files that already fit the tier are only remuxed; anything over the upload limit is `too_large`.
package struct VideoCompressor: Sendable {
    package var policy: AdmissionPolicy
    package var preset: CompressPreset
    package var encoderThreads: Int

    package init(
        policy: AdmissionPolicy = AdmissionPolicy(), preset: CompressPreset = .default, encoderThreads: Int = 2
    ) {
        self.policy = policy
        self.preset = preset
        self.encoderThreads = encoderThreads
    }

    package func run(
        source: String, output: String, quality: CompressPreset.Quality,
        progress: @Sendable (TranscodeProgress) -> Void = { _ in }, isCancelled: @Sendable () -> Bool = { false }
    ) throws(TranscodeError) -> CompressSummary {
        let started = Date()
        let admitted: AdmittedVideo
        do { admitted = try policy.admitVideo(path: source) } catch {
            throw TranscodeError(.rejected(error), path: source)
        }
        let info = admitted.info
        guard let video = info.video else {
            throw TranscodeError(.rejected(Rejection(.noVideoStream, "no video stream", path: source)), path: source)
        }
        guard !Directory.exists(output) else {
            throw TranscodeError(
                .outputFailed, "\(output) already exists; compress never overwrites", path: source, retryable: false)
        }
        let staging: StagingDirectory
        do { staging = try StagingDirectory(besides: output) } catch { throw TranscodeError(error, path: source) }
        defer { staging.discard() }
        let temporary = staging.path + "/output.mp4"
        // A file that fits is only remuxed, unless its audio is off the loudness target (then it is encoded) or it
        // is HDR: `reel upload` sends what compress makes, and it must be SDR.
        let loudness = try LadderTranscoder.planLoudness(
            admitted, audioIndex: try LadderTranscoder.openStreams(admitted).audio, preset: preset.ladder(quality))
        let fits =
            info.fileSize < preset.remuxBelowBytes && preset.fits(info, quality: quality)
            && loudness?.acceptsSourceAudio ?? true && HDRConverter.source(for: video.colour) == nil
        var summary = CompressSummary(
            source: source, output: output, mode: fits ? .remux : .transcode, sourceBytes: info.fileSize, bytes: 0,
            width: video.displayWidth, height: video.displayHeight, frameRate: video.averageFrameRate,
            durationSeconds: info.durationSeconds ?? 0, elapsedSeconds: 0
        )
        do {
            let input = try admitted.openInput()
            if fits {
                try Remuxer.remux(input, to: temporary, rotation: video.rotation, isCancelled: isCancelled)
                summary.loudness = loudness?.recordCopied
            } else {
                let (width, height, rate, normalizer) = try transcode(
                    input, admitted: admitted, to: temporary, quality: quality, loudness: loudness,
                    progress: progress, isCancelled: isCancelled, started: started)
                (summary.width, summary.height, summary.frameRate) = (width, height, rate)
                summary.loudness = loudness?.record(after: normalizer)
            }
            try staging.publish("output.mp4", to: output)
        } catch let error as Rejection {
            throw TranscodeError(.rejected(error), path: source)
        } catch {
            throw TranscodeError(wrapping: error, path: source)
        }
        summary.bytes = (try? ReadOnlyFile(path: output))?.size ?? 0
        summary.elapsedSeconds = Date().timeIntervalSince(started)
        return summary
    }

    private func transcode(
        _ input: InputContext, admitted: AdmittedVideo, to path: String, quality: CompressPreset.Quality,
        loudness: LoudnessPlan?, progress: @Sendable (TranscodeProgress) -> Void, isCancelled: @Sendable () -> Bool,
        started: Date
    ) throws -> (Int, Int, Double, LoudnessNormalizer?) {
        guard let videoIndex = input.bestStream(.video) else {
            throw Rejection(.noVideoStream, "no video stream", path: admitted.path)
        }
        let audioIndex = input.bestStream(.audio)
        input.discardAll(except: Set([videoIndex] + (audioIndex.map { [$0] } ?? [])))
        let stream = input.streams[videoIndex]
        let ladder = preset.ladder(quality)
        let plan = LadderPlanner(preset: ladder).plan(
            .init(
                width: stream.width, height: stream.height, rotation: stream.rotation,
                averageFrameRate: stream.averageFrameRate.doubleValue, realFrameRate: stream.realFrameRate.doubleValue
            ))
        let top = LadderPlan(
            rungs: [plan.rungs.last!], frameRate: plan.frameRate, keyframeInterval: plan.keyframeInterval,
            rotation: plan.rotation)
        let session = try LadderSession(
            input: input, videoIndex: videoIndex, audioIndex: audioIndex, plan: top, preset: ladder,
            destination: { _, _ in .mp4(path: path) }, limits: admitted.limits, threads: encoderThreads,
            converter: try HDRConverter.make(for: admitted)
        )
        session.normalizeLoudness(loudness)
        let duration = admitted.info.durationSeconds ?? 0
        try session.run(duration: duration, isCancelled: isCancelled) { seconds in
            let elapsed = Date().timeIntervalSince(started)
            progress(
                TranscodeProgress(
                    seconds: seconds, durationSeconds: duration, speed: elapsed > 0 ? seconds / elapsed : 0))
        }
        return (top.rungs[0].width, top.rungs[0].height, top.frameRateValue, session.loudness)
    }
}
