/// Colour: an HDR transfer needs more than 8 bits, VIDEO-RANGE says which transfer the video has, and the variants
/// of one rung (the same picture in another codec) are tagged alike, so a player switching between them does not
/// change the picture's colours.
extension CheckRun {
    /// reel.colour.8bit-hdr, once per init segment, as it is read.
    func checkBitDepth(_ initSegment: InitSegment, file: String) {
        guard let video = initSegment.video, video.colour.isHDR, let depth = video.bitDepth, depth < 10 else { return }
        report(
            .hdrBitDepth, file,
            "\(depth)-bit video (\(video.configuration?.codec ?? video.format ?? "?")) tagged "
                + "\(video.colour.transferDescription) in \(video.colour.originDescription): an HDR transfer needs "
                + "10 bits or more; expected a 10-bit stream, or an SDR transfer such as 1 (bt709) for 8-bit video")
    }

    /// reel.colour.video-range for one EXT-X-STREAM-INF or EXT-X-I-FRAME-STREAM-INF (`name` is its URI), against
    /// the video track of `analysis`'s init segment.
    func checkVideoRange(
        _ attributes: AttributeList, name: String, video: InitSegment.Track, analysis: RenditionAnalysis
    ) {
        let expected = video.colour.videoRange
        let found = "\(initSegmentFile(of: analysis)) has \(video.colour.transferDescription)"
        guard let declared = attributes.values["VIDEO-RANGE"] else {
            if expected != "SDR" {
                report(
                    .videoRange, masterFile,
                    "\(name): no VIDEO-RANGE, which means SDR, but \(found); expected VIDEO-RANGE=\(expected)")
            }
            return
        }
        guard ["SDR", "HLG", "PQ"].contains(declared) else {
            report(
                .videoRange, masterFile,
                "\(name): VIDEO-RANGE=\(declared) is none of SDR, HLG and PQ, so players skip the variant; "
                    + "\(found), expected VIDEO-RANGE=\(expected)")
            return
        }
        if declared != expected {
            report(
                .videoRange, masterFile,
                "\(name): VIDEO-RANGE=\(declared) but \(found); expected VIDEO-RANGE=\(expected)")
        }
    }

    /// reel.colour.rung: variants with the same RESOLUTION (the measured size when it has none) and the same
    /// VIDEO-RANGE are one rung; each must carry the colour tags of the first one listed.
    func checkRungColours(_ variants: [(variant: MasterPlaylist.Variant, analysis: RenditionAnalysis)]) {
        var rungs: [String: (name: String, analysis: RenditionAnalysis, video: InitSegment.Track)] = [:]
        for (variant, analysis) in variants {
            guard let video = analysis.initSegment?.video else { continue }
            let size =
                variant.attributes.text("RESOLUTION") ?? "\(video.displayWidth)x\(video.displayHeight)"
            let range = variant.attributes.values["VIDEO-RANGE"] ?? "SDR"
            let key = size + " " + range
            guard let first = rungs[key] else {
                rungs[key] = (variant.uri, analysis, video)
                continue
            }
            guard first.analysis.location != analysis.location, !video.colour.sameTags(as: first.video.colour) else {
                continue
            }
            let firstFile = initSegmentFile(of: first.analysis)
            report(
                .rungColour, initSegmentFile(of: analysis),
                "\(variant.uri) (\(size), VIDEO-RANGE \(range)) is tagged \(video.colour) in "
                    + "\(video.colour.originDescription), but \(first.name) of the same rung is tagged "
                    + "\(first.video.colour) (\(firstFile)); expected the same tags as \(firstFile)")
        }
    }

    /// The init segment a media playlist's first EXT-X-MAP names, as findings name files.
    func initSegmentFile(of analysis: RenditionAnalysis) -> String {
        guard let map = analysis.playlist.segments.lazy.compactMap(\.map).first else { return analysis.file }
        return display(reader.resolve(map.uri, against: analysis.location))
    }
}
