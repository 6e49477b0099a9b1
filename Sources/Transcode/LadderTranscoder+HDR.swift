internal import FileSystem
internal import Ingest
internal import LibAV
internal import MediaModel

extension LadderTranscoder {
    /// The HDR rendition of an HDR upload whose ladder has HEVC (`HDRRendition`): the top rung again, from the
    /// unconverted pictures in 10 bits, on the same frame-rate clock and keyframe grid as the SDR rungs (the same
    /// `decodeLead`, so its IDRs keep their presentation times), at the rung's HEVC CRF, its audio brought to the
    /// same loudness.
    func encodeHDR(
        _ admitted: AdmittedVideo, plan: LadderPlan, hdr: HDRRendition, decodeLead: Int64, loudness: LoudnessPlan?,
        directory: String, isCancelled: @Sendable () -> Bool
    ) throws -> TranscodeSummary.Rendition {
        let (input, videoIndex, audioIndex) = try Self.openStreams(admitted)
        var top = plan
        top.rungs = [plan.rungs[plan.rungs.count - 1]]
        top.codecs = [.hevc]
        let suffix = "-" + hdr.range.rawValue.lowercased()
        let session = try LadderSession(
            input: input, videoIndex: videoIndex, audioIndex: audioIndex, plan: top, preset: preset,
            destination: { rung, codec in .hls(directory: directory + "/" + codec.renditionID(rung: rung.id) + suffix)
            },
            limits: admitted.limits, threads: encoderThreads, decodeLead: decodeLead, hdr: hdr)
        session.normalizeLoudness(loudness)
        _ = try session.run(duration: admitted.info.durationSeconds ?? 0, isCancelled: isCancelled) { _ in }
        guard let rendition = try session.renditions().first else {
            throw TranscodeError(.encodeFailed, "the HDR rendition made no output", path: admitted.path)
        }
        return rendition
    }
}
