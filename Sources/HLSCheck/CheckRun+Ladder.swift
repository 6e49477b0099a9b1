/// Rules about the variants together: how many, same target duration and time range, aligned IDRs, and
/// EXT-X-INDEPENDENT-SEGMENTS where segments start with IDRs.
extension CheckRun {
    func checkLadder(_ master: MasterPlaylist, _ variants: [RenditionAnalysis]) {
        var seen = Set<String>()
        let unique = variants.filter { seen.insert($0.location).inserted }
        let renditions = master.renditions.compactMap { $0.attributes.quoted("URI") }
            .compactMap { analyses[reader.resolve($0, against: masterLocation)] ?? nil }
            .filter { seen.insert($0.location).inserted }
        let video = unique.filter(\.hasVideo)
        if master.variants.count > 0, Set(master.variants.map(\.uri)).count < 2 {
            report(.multipleVariants, masterFile, "only one variant: players cannot adapt to the bandwidth they have")
        }
        if !video.isEmpty, master.iFrameVariants.isEmpty {
            report(
                .iFramePlaylists, masterFile,
                "no EXT-X-I-FRAME-STREAM-INF: no I-frame playlists for scrubbing and fast forward")
        }
        checkTargetDurations(unique + renditions)
        checkTimeRanges(unique + renditions)
        checkAlignment(video)
        let independent = video.filter(\.allStartWithIDR)
        if !independent.isEmpty, !master.independentSegments {
            report(
                .independentMaster, masterFile,
                "segments start with IDRs but the master has no EXT-X-INDEPENDENT-SEGMENTS")
            for analysis in independent where !analysis.playlist.independentSegments {
                report(
                    .independentMedia, analysis.file,
                    "EXT-X-INDEPENDENT-SEGMENTS is in neither this playlist nor the master")
            }
        }
    }

    private func checkTargetDurations(_ playlists: [RenditionAnalysis]) {
        let targets = playlists.compactMap(\.playlist.targetDuration)
        let counts = Dictionary(targets.map { ($0, 1) }, uniquingKeysWith: +)
        // The most common target is the reference; on a tie, the first playlist's (the master's first variant).
        guard counts.count > 1, let most = counts.values.max(), let usual = targets.first(where: { counts[$0] == most })
        else { return }
        for analysis in playlists {
            if let target = analysis.playlist.targetDuration, target != usual {
                report(
                    .sameTargetDuration, analysis.file,
                    "EXT-X-TARGETDURATION is \(target), the other media playlists say \(usual)")
            }
        }
    }

    private func checkTimeRanges(_ playlists: [RenditionAnalysis]) {
        guard let reference = playlists.first else { return }
        let tolerance = playlists.compactMap(\.frameDuration).max().map { $0 + 0.001 } ?? 0.05
        for analysis in playlists.dropFirst() {
            let difference = analysis.playlist.duration - reference.playlist.duration
            if abs(difference) > tolerance {
                report(
                    .sameTimeRange, analysis.file,
                    "lasts \(Self.seconds(analysis.playlist.duration)) s, "
                        + "\(reference.file) lasts \(Self.seconds(reference.playlist.duration)) s")
            }
        }
    }

    /// 8.22: segment boundaries, and the IDRs inside segments, at the same times in every video variant.
    private func checkAlignment(_ variants: [RenditionAnalysis]) {
        guard let reference = variants.first else { return }
        let referenceStarts = reference.segmentStarts
        let referenceKeys = relativeKeyframes(reference)
        for analysis in variants.dropFirst() {
            let tolerance = min(reference.frameDuration ?? 0.04, analysis.frameDuration ?? 0.04) / 2
            let starts = analysis.segmentStarts
            if starts.count != referenceStarts.count {
                report(
                    .alignedSegments, analysis.file,
                    "\(starts.count) segments, \(reference.file) has \(referenceStarts.count)")
                continue
            }
            if let index = starts.indices.first(where: { abs(starts[$0] - referenceStarts[$0]) > tolerance }) {
                report(
                    .alignedSegments, analysis.file,
                    "\(analysis.segments[index].uri) starts at \(Self.seconds(starts[index])) s, "
                        + "the same segment of \(reference.file) at \(Self.seconds(referenceStarts[index])) s")
                continue
            }
            // IDRs inside segments are compared only when both variants were read whole.
            guard reference.isFullyMeasured, analysis.isFullyMeasured else { continue }
            let keys = relativeKeyframes(analysis)
            let unmatched = keys.filter { key in !referenceKeys.contains { abs($0 - key) <= tolerance } }
            let missing = referenceKeys.filter { key in !keys.contains { abs($0 - key) <= tolerance } }
            if let first = (unmatched + missing).min() {
                report(
                    .alignedSegments, analysis.file,
                    "IDRs differ from \(reference.file): \(keys.count) against "
                        + "\(referenceKeys.count), first difference at \(Self.seconds(first)) s")
            }
        }
    }

    private func relativeKeyframes(_ analysis: RenditionAnalysis) -> [Double] {
        guard let origin = analysis.segments.first?.start else { return [] }
        return analysis.segments.flatMap(\.keyframes).map { $0 - origin }
    }
}
