/// I-frame playlists: each entry must be a byte range holding a 'moof' and, whole, the IDR sample it describes.
extension CheckRun {
    func checkIFrameVariants(_ master: MasterPlaylist) {
        for variant in master.iFrameVariants {
            let attributes = variant.attributes
            guard let uri = attributes.quoted("URI") else {
                report(.syntax, masterFile, "line \(variant.line): EXT-X-I-FRAME-STREAM-INF without a quoted URI")
                continue
            }
            let bandwidth = attributes.integer("BANDWIDTH")
            if bandwidth == nil {
                report(.syntax, masterFile, "\(uri): EXT-X-I-FRAME-STREAM-INF has no valid BANDWIDTH")
            }
            let codecs = attributes.quoted("CODECS")
            if codecs == nil { report(.iFrameCodecs, masterFile, "\(uri): EXT-X-I-FRAME-STREAM-INF has no CODECS") }
            if attributes.resolution("RESOLUTION") == nil {
                report(.iFrameResolution, masterFile, "\(uri): EXT-X-I-FRAME-STREAM-INF has no valid RESOLUTION")
            }
            let location = reader.resolve(uri, against: masterLocation)
            guard let analysis = analyzeMedia(location, iFrames: true) else { continue }
            let measured = checkIFrames(analysis)
            if let track = measured.track {
                checkVideoRange(attributes, name: uri, video: track, analysis: analysis)
                if let codecs, let codec = track.configuration?.codec ?? track.format {
                    compareCodecs(declared: codecs, measured: [codec], file: masterFile, name: uri)
                }
                if let resolution = attributes.resolution("RESOLUTION"),
                    !(resolution.width == track.displayWidth && resolution.height == track.displayHeight),
                    !(resolution.width == track.codedWidth && resolution.height == track.codedHeight)
                {
                    report(
                        .iFrameResolution, masterFile,
                        "\(uri): RESOLUTION=\(attributes.text("RESOLUTION") ?? "") "
                            + "but the video is \(track.displayWidth)x\(track.displayHeight)")
                }
            }
            if let bandwidth, bandwidth > 0, measured.peak > 0,
                abs(measured.peak - Double(bandwidth)) > 0.1 * Double(bandwidth)
            {
                report(
                    .iFrameBandwidth, masterFile,
                    "\(uri): BANDWIDTH=\(bandwidth) but its largest I-frame is "
                        + "\(Self.whole(measured.peak)) bit/s over its EXTINF, \(Self.percent(measured.peak, of: bandwidth)) off"
                )
            }
        }
    }

    /// Opens each entry's range; returns the video track and the peak bit rate (range bytes × 8 / EXTINF).
    private func checkIFrames(_ analysis: RenditionAnalysis) -> (track: InitSegment.Track?, peak: Double) {
        var peak = 0.0
        var videoTrack: InitSegment.Track?
        for segment in analysis.playlist.segments {
            let location = reader.resolve(segment.uri, against: analysis.location)
            let name = segment.uri + (segment.byteRange.map { " \($0.length)@\($0.offset)" } ?? "")
            guard let range = resolveRange(segment, location: location, playlist: analysis.file) else { continue }
            if segment.duration > 0 { peak = max(peak, Double(range.length * 8) / segment.duration) }
            guard let map = segment.map else {
                report(.mapPresent, analysis.file, "no EXT-X-MAP before \(segment.uri)")
                continue
            }
            guard let initSegment = initSegment(map, playlist: analysis.location), let track = initSegment.video else {
                continue
            }
            videoTrack = videoTrack ?? track
            let scan: SegmentScan
            do {
                scan = try SegmentScan.scan(
                    reader, location, offset: range.offset, length: range.length,
                    defaults: [track.id: track.defaults], partialMediaData: true)
            } catch {
                report(
                    .iFrameMoof, analysis.file,
                    "\(name): the range does not hold whole boxes from its first byte (\(error))")
                continue
            }
            guard let fragment = scan.fragments.first else {
                report(
                    .iFrameMoof, analysis.file,
                    "\(name): no 'moof' in the range (boxes: \(scan.boxTypes.joined(separator: ", ")))")
                continue
            }
            guard let sample = fragment.tracks.first(where: { $0.trackID == track.id })?.samples.first else {
                report(.iFrameIsIDR, analysis.file, "\(name): the 'moof' has no sample of video track \(track.id)")
                continue
            }
            guard sample.offset >= range.offset, sample.offset + Int64(sample.size) <= range.end else {
                report(
                    .iFrameIsIDR, analysis.file,
                    "\(name): the I-frame's \(sample.size) bytes at \(sample.offset) "
                        + "are not all in the range (\(range.offset)..<\(range.end))")
                continue
            }
            let verdict = keyFrame(sample, track: track, location: location)
            if !verdict.isKey { report(.iFrameIsIDR, analysis.file, "\(name): not an IDR: \(verdict.seen)") }
        }
        return (videoTrack, peak)
    }
}
