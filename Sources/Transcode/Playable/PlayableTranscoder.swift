internal import FileSystem
internal import Foundation
internal import HLSCheck
package import Ingest
internal import LibAV
internal import Loudness
internal import MediaModel

/// Makes an upload playable before its ladder (issue 64, docs/hls.md "Playable early"): a provisional rendition in
/// a directory of its own (`staging/playable/`), announced through `ready` once its master, poster, init segment and
/// first two segments are on disk, and again when it is complete. `PlayablePlan` picks how: the upload's packets
/// copied when it already is one of the ladder's rungs (`remux`), else the ladder's lowest rung encoded first at a
/// fast x264 preset into a growing `EVENT` playlist (`firstRung`).
package struct PlayableTranscoder: Sendable {
    package enum Mode: String, Sendable {
        case remux
        case firstRung = "first_rung"
    }

    /// The provisional rendition's audio: none, the upload's packets, or encoded at the loudness target.
    package enum Audio: String, Sendable {
        case none, copied, encoded
    }

    /// What the directory holds when `ready` is called.
    package struct Report: Sendable {
        package var mode: Mode
        /// Why the upload was not copied; nil for `remux`.
        package var reason: PlayablePlan.Reason?
        /// What became of the upload's audio.
        package var audio: Audio
        package var durationSeconds: Double
        /// One rendition, its playlist relative to the directory.
        package var renditions: [TranscodeSummary.Rendition]
        package var posterJPEG = "poster.jpg"
        package var posterWebP = "poster.webp"
        /// The playlist ends with `#EXT-X-ENDLIST`.
        package var complete: Bool
    }

    package var preset: LadderPreset
    /// The x264 preset of the first rung: the fastest that keeps it well ahead of real time on one core for the
    /// slowest input allowed (1080p60 10-bit HEVC HLG), measured in docs/hls.md.
    package var firstRungX264Preset: String
    /// x264 threads of the first rung's encoder.
    package var encoderThreads: Int

    package init(preset: LadderPreset, firstRungX264Preset: String = "superfast", encoderThreads: Int = 1) {
        self.preset = preset
        self.firstRungX264Preset = firstRungX264Preset
        self.encoderThreads = encoderThreads
    }

    /// Makes the provisional rendition in `directory` (created; it must not hold anything yet).
    /// - Parameter ready: called with what is on disk once it may be published, and again when it is complete.
    /// - Throws: `TranscodeError` for anything that failed; the caller removes `directory`.
    package func run(
        _ admitted: AdmittedVideo, into directory: String, ready: (Report) throws -> Void,
        isCancelled: @Sendable () -> Bool = { false }
    ) throws(TranscodeError) -> Report {
        let source = admitted.path
        do {
            try Directory.create(directory)
            let scanned = try PlayableScan.scan(admitted, segmentSeconds: preset.segmentSeconds)
            let decision = PlayablePlan(preset: preset).decide(scanned.facts)
            switch decision {
            case let .remux(rung):
                return try remux(admitted, scanned: scanned, rung: rung, into: directory, ready: ready)
            case let .firstRung(rung, reason):
                return try firstRung(
                    admitted, scanned: scanned, rung: rung, reason: reason, into: directory, ready: ready,
                    isCancelled: isCancelled)
            }
        } catch {
            throw TranscodeError(wrapping: error, path: source)
        }
    }

    private func remux(
        _ admitted: AdmittedVideo, scanned: PlayableScan.Scanned, rung: LadderPlan.Rung, into directory: String,
        ready: (Report) throws -> Void
    ) throws -> Report {
        let audioIndex = scanned.audioIndex
        // The audio is copied when it is on the target as `reel compress` judges it (±0.5 LU, true peak under the
        // ceiling), else brought there as the ladder brings it.
        var normalize: LoudnessPlan?
        if let audioIndex, preset.loudness.enabled {
            let pass = LoudnessPrePass(audio: preset.audio)
            let measurement = try pass.measure(admitted, audioIndex: audioIndex)
            if !preset.loudness.policy.accepts(
                sourceLUFS: measurement.integratedLUFS, sourceTruePeakDBTP: measurement.truePeakDBTP)
            {
                normalize = try LoudnessPlan(
                    measurement, settings: preset.loudness, pass: pass, bitratesKbps: [rung.audioBitrateKbps])
            }
        }
        let folder = directory + "/" + rung.id
        try Directory.create(folder)
        let remuxer = try PlayableRemuxer(
            admitted, scanned: scanned, rung: rung, preset: preset, directory: folder, normalize: normalize)
        try remuxer.run(isCancelled: { false })
        guard let picture = scanned.firstPicture else {
            throw TranscodeError(.encodeFailed, "no picture was decoded for the poster", path: "")
        }
        try PlayablePoster.write(picture, jpeg: directory + "/poster.jpg", webp: directory + "/poster.webp")
        var rendition = try Self.rendition(id: rung.id, rung: rung, directory: directory, cap: nil)
        rendition.frames = remuxer.videoPackets
        let frameRate = admitted.info.video.map { $0.averageFrameRate > 0 ? $0.averageFrameRate : $0.realFrameRate }
        try Self.writeMaster([rendition], directory: directory, frameRate: frameRate ?? 30, complete: true, type: .vod)
        let report = Report(
            mode: .remux, reason: nil, audio: audioIndex == nil ? .none : normalize == nil ? .copied : .encoded,
            durationSeconds: admitted.info.durationSeconds ?? 0, renditions: [rendition],
            complete: true)
        try ready(report)
        return report
    }

    /// The rendition as its files stand: sizes and rates measured from the playlist's segments; `cap` (bit/s) is
    /// declared as its `BANDWIDTH` while the playlist still grows, when it is above what was measured so far.
    static func rendition(
        id: String, rung: LadderPlan.Rung, directory: String, cap: Int?
    ) throws -> TranscodeSummary.Rendition {
        let folder = directory + "/" + id
        let measured = try MasterPlaylistWriter.measure(playlist: folder + "/index.m3u8")
        return TranscodeSummary.Rendition(
            id: id, width: rung.width, height: rung.height, playlist: id + "/index.m3u8", bytes: measured.bytes,
            bandwidth: max(measured.peak, cap ?? 0), averageBandwidth: measured.average,
            codecs: try MasterPlaylistWriter.codecs(initSegment: folder + "/init.mp4"), segments: measured.segments,
            frames: 0, rung: rung.id, videoCodec: .h264, crf: nil, ssimY: nil, targetSSIMY: nil,
            encodeCPUSeconds: nil, prefetch: measured.prefetch)
    }

    /// The playlist type the provisional rendition's media playlist has, which its final check allows.
    enum PlaylistType {
        case vod
        /// Stays `EVENT` once complete: a server may only append to a playlist that players already read (RFC 8216
        /// §6.2.1), so it never turns into `VOD`; Apple's rule 8.6 (a finished playlist says VOD) is waived for it.
        case event
    }

    /// The master (the ladder's writer, so the same version and attributes), checked against Apple's rules once the
    /// media playlist is complete (one variant: rule 9.9 waived, as `LadderTranscoder.checkAppleRules` waives it for a
    /// source too small for a second rung). It names no I-frame playlist (rule 6.1 waived): the worker publishes the
    /// master as soon as two segments are stored, before an I-frame playlist could be whole, and the ladder that
    /// replaces it within the minute has them.
    static func writeMaster(
        _ renditions: [TranscodeSummary.Rendition], directory: String, frameRate: Double, complete: Bool,
        type: PlaylistType
    ) throws {
        let text = MasterPlaylistWriter.text(renditions, iFrames: [], frameRate: frameRate)
        let master = directory + "/master.m3u8"
        try AtomicFile.write(Array(text.utf8), to: master, durable: false)
        guard complete else { return }
        let waived: Set<String> = type == .event ? ["9.9", "6.1", "8.6"] : ["9.9", "6.1"]
        let report = HLSChecker(options: .init(waivedRules: waived)).check(master: master)
        guard report.passed else {
            let broken = report.findings.filter { $0.severity == .must && !$0.waived }
                .map { "\($0.rule) \($0.file): \($0.message)" }.joined(separator: "; ")
            throw TranscodeError(
                .outputFailed, "the provisional rendition breaks Apple's HLS authoring rules (a Reel bug): \(broken)",
                path: "", retryable: false)
        }
    }
}
