internal import FileSystem
internal import Foundation
internal import HLSCheck
package import Ingest
internal import LibAV
internal import LibTurboJPEG
internal import LibWebP
package import MediaModel

/// Decode once, encode every rung: each decoded picture is made upright once, then handed to every rung's
/// scaler and encoder in parallel. Audio is decoded once, resampled once and encoded per rung.
package struct LadderTranscoder: Sendable {
    package var policy: AdmissionPolicy
    package var preset: LadderPreset
    /// x264 threads per rung encoder.
    package var encoderThreads: Int
    /// Read every rendition back as it is encoded and report its SSIM-Y (`TranscodeSummary.Rendition.ssimY`): a
    /// decode per rendition and the rung's pictures held for the encoder's delay.
    package var measuresQuality: Bool

    package init(
        policy: AdmissionPolicy = AdmissionPolicy(), preset: LadderPreset = .default, encoderThreads: Int = 2,
        measuresQuality: Bool = false
    ) {
        self.policy = policy
        self.preset = preset
        self.encoderThreads = encoderThreads
        self.measuresQuality = measuresQuality
    }

    /// Transcodes `source` into the directory `output`, which must not exist yet (or be empty). Everything is
    /// written into a hidden sibling first and renamed into place at the end, so `output` is complete or absent.
    package func run(
        source: String, output: String,
        progress: @Sendable (TranscodeProgress) -> Void = { _ in },
        isCancelled: @Sendable () -> Bool = { false }
    ) throws(TranscodeError) -> TranscodeSummary {
        let started = Date()
        let admitted: AdmittedVideo
        do { admitted = try policy.admitVideo(path: source) } catch {
            throw TranscodeError(.rejected(error), path: source)
        }
        var summary = try run(admitted, output: output, progress: progress, isCancelled: isCancelled)
        summary.elapsedSeconds = Date().timeIntervalSince(started)
        return summary
    }

    /// Transcodes an upload its caller already admitted (the worker's job admits once and picks the pipeline with
    /// what admission learnt), with the same all-or-nothing `output` as `run(source:output:)`.
    package func run(
        _ admitted: AdmittedVideo, output: String,
        progress: @Sendable (TranscodeProgress) -> Void = { _ in },
        isCancelled: @Sendable () -> Bool = { false }
    ) throws(TranscodeError) -> TranscodeSummary {
        let started = Date()
        let source = admitted.path
        let staging = try Self.makeStaging(final: output, source: source)
        do throws(TranscodeError) {
            var summary = try transcode(admitted, into: staging.path, progress: progress, isCancelled: isCancelled)
            do { try staging.publish(to: output) } catch { throw TranscodeError(error, path: source) }
            summary.output = output
            summary.elapsedSeconds = Date().timeIntervalSince(started)
            return summary
        } catch {
            staging.discard()
            throw error
        }
    }

    /// The output directory must be new (or empty): a transcode never overwrites. The HLS muxer expands printf
    /// patterns in segment names, so a '%' in the path would be misread.
    static func makeStaging(final output: String, source: String) throws(TranscodeError) -> StagingDirectory {
        guard !output.contains("%") else {
            throw TranscodeError(
                .outputFailed, "the output path may not contain '%': \(output)", path: source, retryable: false)
        }
        if Directory.exists(output) {
            guard let entries = try? Directory.entries(of: output), entries.isEmpty else {
                throw TranscodeError(
                    .outputFailed, "\(output) already exists and is not an empty directory", path: source,
                    retryable: false)
            }
        }
        do { return try StagingDirectory(besides: output) } catch { throw TranscodeError(error, path: source) }
    }

    private func transcode(
        _ admitted: AdmittedVideo, into directory: String,
        progress: @Sendable (TranscodeProgress) -> Void, isCancelled: @Sendable () -> Bool
    ) throws(TranscodeError) -> TranscodeSummary {
        let source = admitted.path
        var (input, videoIndex, audioIndex) = try Self.openStreams(admitted)
        let stream = input.streams[videoIndex]
        var plan = LadderPlanner(preset: preset).plan(
            .init(
                width: stream.width, height: stream.height, rotation: stream.rotation,
                averageFrameRate: stream.averageFrameRate.doubleValue, realFrameRate: stream.realFrameRate.doubleValue
            ))
        let loudness = try Self.planLoudness(
            admitted, audioIndex: audioIndex, preset: preset, bitratesKbps: plan.rungs.map(\.audioBitrateKbps))
        let duration = admitted.info.durationSeconds ?? 0
        let base = plan
        let converter: HDRConverter?
        do { converter = try HDRConverter.make(for: admitted) } catch { throw TranscodeError(error, path: source) }
        let destination = { (rung: LadderPlan.Rung, codec: VideoCodec) -> RungOutput.Destination in
            .hls(directory: directory + "/" + codec.renditionID(rung: rung.id))
        }
        do {
            var rateAnalysis: RateAnalysis?
            let analyzer = RateAnalyzer(preset: preset)
            // An H.264-only ladder makes its first probes inside its own encode; when they find headroom it stops,
            // the analysis runs, and the ladder starts again from the top at the CRFs chosen.
            var trial =
                preset.contentAware.enabled
                ? try analyzer.firstProbeTrial(
                    plan: plan, color: LadderSession.outputColor(input, videoIndex, plan, converting: converter != nil),
                    threads: encoderThreads)
                : nil
            var first: RateAnalysis.FirstProbes?
            var check: CheckSlots?
            // One encode of the ladder; nil when the first probes found headroom. The session is gone when it
            // returns, so its muxers have closed their files before its renditions are removed.
            func encode() throws -> LadderSession? {
                let session = try LadderSession(
                    input: input, videoIndex: videoIndex, audioIndex: audioIndex, plan: plan, preset: preset,
                    destination: destination,
                    limits: admitted.limits, threads: encoderThreads, storyboardDuration: duration,
                    measure: measuresQuality || check != nil, pools: check?.pools ?? [],
                    references: check?.references ?? [:], sample: check?.sample ?? [], trial: trial,
                    converter: converter
                )
                trial = nil  // the session's now: its probe encoder goes when the probes decide
                session.normalizeLoudness(loudness)
                let started = Date()
                let outcome = try session.run(duration: duration, isCancelled: isCancelled) { seconds in
                    let elapsed = Date().timeIntervalSince(started)
                    progress(
                        TranscodeProgress(
                            seconds: seconds, durationSeconds: duration, speed: elapsed > 0 ? seconds / elapsed : 0))
                }
                first = session.firstProbes ?? first
                if let first, first.stopped != nil {
                    rateAnalysis = analyzer.stopped(
                        plan: plan, duration: duration, first: first, elapsedSeconds: session.firstProbesElapsedSeconds)
                }
                return outcome == .finished ? session : nil
            }
            if preset.contentAware.enabled, trial == nil {
                // A ladder with other codecs: the whole analysis first.
                (plan, rateAnalysis) = try analyseRates(
                    admitted, videoIndex: videoIndex, plan: plan, duration: duration, first: nil)
                check = Self.checkSlots(plan, base: base, analysis: rateAnalysis, duration: duration)
            }
            var encoded = try encode()
            if encoded == nil {
                for rung in plan.rungs {
                    Directory.remove(directory + "/" + VideoCodec.h264.renditionID(rung: rung.id))
                }
                (input, videoIndex, audioIndex) = try Self.openStreams(admitted)
                (plan, rateAnalysis) = try analyseRates(
                    admitted, videoIndex: videoIndex, plan: plan, duration: duration, first: first)
                check = Self.checkSlots(plan, base: base, analysis: rateAnalysis, duration: duration)
                encoded = try encode()
            }
            // Only a session with first probes stops early, and the second has none.
            guard let session = encoded else {
                throw TranscodeError(.encodeFailed, "the ladder stopped early without first probes", path: source)
            }
            var renditions = try session.renditions()
            var rateCheck: RateCheck?
            if let check, let rateAnalysis {
                rateCheck = try checkRates(
                    admitted, session: session, plan: plan, analysis: rateAnalysis, slots: check,
                    directory: directory, renditions: &renditions, isCancelled: isCancelled)
            }
            if converter != nil, plan.codecs.contains(.hevc),
                let hdr = HDRRendition(
                    admitted.info.video?.colour, tags: try input.colorDescription(ofStream: videoIndex))
            {
                renditions.append(
                    try encodeHDR(
                        admitted, plan: plan, hdr: hdr, decodeLead: session.decodeLead, loudness: loudness,
                        directory: directory, isCancelled: isCancelled))
            }
            let iFrames = try MasterPlaylistWriter.writeIFramePlaylists(renditions, directory: directory)
            let masters = MasterPlaylistWriter.files(
                renditions, iFrames: iFrames, codecs: plan.codecs, frameRate: plan.frameRateValue)
            for (name, text) in masters {
                try AtomicFile.write(Array(text.utf8), to: directory + "/" + name, durable: false)
            }
            let posterTime = try session.writePosters(jpeg: directory + "/poster.jpg", webp: directory + "/poster.webp")
            let storyboard = try session.writeStoryboard(into: directory)
            for (name, _) in masters {
                try Self.checkAppleRules(directory + "/" + name, rungs: plan.rungs.count, source: source)
            }
            return TranscodeSummary(
                source: source, output: directory, durationSeconds: duration, frameRate: plan.frameRateValue,
                renditions: renditions, posterJPEG: "poster.jpg", posterWebP: "poster.webp",
                posterTimeSeconds: posterTime, storyboard: storyboard, elapsedSeconds: 0, rateAnalysis: rateAnalysis,
                rateCheck: rateCheck, loudness: loudness?.record(after: session.loudness)
            )
        } catch {
            throw TranscodeError(wrapping: error, path: source)
        }
    }

    /// An input of its own on the admitted upload, reading only its best video stream and best audio stream (nil
    /// when it has none).
    static func openStreams(
        _ admitted: AdmittedVideo
    ) throws(TranscodeError) -> (input: InputContext, video: Int, audio: Int?) {
        let input: InputContext
        do { input = try admitted.openInput() } catch { throw TranscodeError(.rejected(error), path: admitted.path) }
        guard let videoIndex = input.bestStream(.video) else {
            throw TranscodeError(
                .rejected(Rejection(.noVideoStream, "no video stream", path: admitted.path)), path: admitted.path)
        }
        let audioIndex = input.bestStream(.audio)
        input.discardAll(except: Set([videoIndex] + (audioIndex.map { [$0] } ?? [])))
        return (input, videoIndex, audioIndex)
    }

    /// Chooses every rendition's CRF for this clip from probe encodes of a few windows (`RateAnalyzer`), on an input
    /// of its own: the ladder's input then reads the clip once from the start.
    private func analyseRates(
        _ admitted: AdmittedVideo, videoIndex: Int, plan: LadderPlan, duration: Double,
        first: RateAnalysis.FirstProbes?
    ) throws -> (LadderPlan, RateAnalysis) {
        let input: InputContext
        do { input = try admitted.openInput() } catch { throw TranscodeError(.rejected(error), path: admitted.path) }
        input.discardAll(except: [videoIndex])
        let converter = try HDRConverter.make(for: admitted)
        let windows = RateAnalyzer.windows(
            duration: duration, samples: preset.contentAware.samples,
            seconds: preset.contentAware.sampleSeconds, grid: preset.keyframeIntervalSeconds)
        let limits = admitted.limits
        let probe = RateProbe(
            input: input, videoIndex: videoIndex, plan: plan, preset: preset,
            color: try LadderSession.outputColor(input, videoIndex, plan, converting: converter != nil),
            threads: encoderThreads, converter: converter,
            windowStarts: windows.starts, windowSeconds: windows.seconds
        ) {
            try input.makeDecoder(
                streamIndex: videoIndex, threads: 2, maxPixels: limits.maxPixels, codecWhitelist: limits.codecs)
        }
        return try RateAnalyzer(preset: preset).run(plan: plan, probe: probe, first: first)
    }

    /// Every ladder passes Reel's own HLS validator before anyone sees it: a MUST finding fails the transcode as a
    /// Reel bug (never retried, never published). One rule is waived on purpose: a source too small for a second
    /// rung gives one variant (Apple 9.9), because Reel never upscales (docs/hls.md).
    static func checkAppleRules(_ master: String, rungs: Int, source: String) throws {
        let report = HLSChecker(options: .init(waivedRules: rungs < 2 ? ["9.9"] : [])).check(master: master)
        guard report.passed else {
            let broken = report.findings.filter { $0.severity == .must && !$0.waived }
                .map { "\($0.rule) \($0.file): \($0.message)" }.joined(separator: "; ")
            throw TranscodeError(
                .outputFailed, "the ladder breaks Apple's HLS authoring rules (a Reel bug): \(broken)", path: source,
                retryable: false)
        }
    }
}
