internal import Foundation
public import Ingest
internal import LibAV
internal import LibTurboJPEG
internal import LibWebP
public import MediaModel

/// Decode once, encode every rung: each decoded picture is made upright once, then handed to every rung's
/// scaler and encoder in parallel. Audio is decoded once, resampled once and encoded per rung.
public struct LadderTranscoder: Sendable {
    public var policy: AdmissionPolicy
    public var preset: LadderPreset
    /// x264 threads per rung encoder.
    public var encoderThreads: Int

    public init(policy: AdmissionPolicy = AdmissionPolicy(), preset: LadderPreset = .default, encoderThreads: Int = 2) {
        self.policy = policy
        self.preset = preset
        self.encoderThreads = encoderThreads
    }

    /// Transcodes `source` into the directory `output`, which must not exist yet (or be empty). Everything is
    /// written into a hidden sibling first and renamed into place at the end, so `output` is complete or absent.
    public func run(
        source: String, output: String,
        progress: @Sendable (TranscodeProgress) -> Void = { _ in },
        isCancelled: @Sendable () -> Bool = { false }
    ) throws(TranscodeError) -> TranscodeSummary {
        let started = Date()
        let admitted: AdmittedVideo
        do { admitted = try policy.admitVideo(path: source) } catch { throw TranscodeError(.rejected(error), path: source) }
        let staging = try StagingDirectory(final: output, source: source)
        do {
            var summary = try transcode(admitted, into: staging.path, progress: progress, isCancelled: isCancelled)
            try staging.publish()
            summary.output = output
            summary.elapsedSeconds = Date().timeIntervalSince(started)
            return summary
        } catch {
            staging.discard()
            throw error
        }
    }

    private func fail(_ error: AVError, _ source: String) -> TranscodeError {
        TranscodeError(.failed(call: error.function, message: error.message, retryable: false), path: source)
    }

    private func transcode(
        _ admitted: AdmittedVideo, into directory: String,
        progress: @Sendable (TranscodeProgress) -> Void, isCancelled: @Sendable () -> Bool
    ) throws(TranscodeError) -> TranscodeSummary {
        let source = admitted.path
        let input: InputContext
        do { input = try admitted.openInput() } catch { throw TranscodeError(.rejected(error), path: source) }
        guard let videoIndex = input.bestStream(.video) else {
            throw TranscodeError(.rejected(Rejection(.noVideoStream, "no video stream", path: source)), path: source)
        }
        let audioIndex = input.bestStream(.audio)
        input.discardAll(except: Set([videoIndex] + (audioIndex.map { [$0] } ?? [])))
        let stream = input.streams[videoIndex]
        let plan = LadderPlanner(preset: preset).plan(.init(
            width: stream.width, height: stream.height, rotation: stream.rotation,
            averageFrameRate: stream.averageFrameRate.doubleValue, realFrameRate: stream.realFrameRate.doubleValue
        ))
        let duration = admitted.info.durationSeconds ?? 0
        do {
            let session = try LadderSession(
                input: input, videoIndex: videoIndex, audioIndex: audioIndex, plan: plan, preset: preset,
                destinations: plan.rungs.map { .hls(directory: directory + "/" + $0.id) },
                limits: admitted.limits, threads: encoderThreads
            )
            let started = Date()
            try session.run(duration: duration, isCancelled: isCancelled) { seconds in
                let elapsed = Date().timeIntervalSince(started)
                progress(TranscodeProgress(seconds: seconds, durationSeconds: duration, speed: elapsed > 0 ? seconds / elapsed : 0))
            }
            let renditions = try session.renditions()
            try MasterPlaylist.text(renditions, frameRate: plan.frameRateValue)
                .write(toFile: directory + "/master.m3u8", atomically: false, encoding: .utf8)
            let posterTime = try session.writePosters(jpeg: directory + "/poster.jpg", webp: directory + "/poster.webp")
            return TranscodeSummary(
                source: source, output: directory, durationSeconds: duration, frameRate: plan.frameRateValue,
                renditions: renditions, posterJPEG: "poster.jpg", posterWebP: "poster.webp",
                posterTimeSeconds: posterTime, elapsedSeconds: 0
            )
        } catch let error as TranscodeError {
            throw TranscodeError(error.kind, path: source)
        } catch let error as AVError {
            throw fail(error, source)
        } catch {
            throw TranscodeError(.failed(call: "write", message: "\(error)", retryable: true), path: source)
        }
    }
}
