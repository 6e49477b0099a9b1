/// Media playlists: their tags, and every segment opened and measured.
extension CheckRun {
    /// Reads, checks and measures the media playlist at `location` once; later calls return the same analysis.
    func analyzeMedia(_ location: String, iFrames: Bool = false) -> RenditionAnalysis? {
        if let done = analyses[location] { return done }
        let result = readMedia(location, iFrames: iFrames)
        analyses[location] = result
        return result
    }

    private func readMedia(_ location: String, iFrames: Bool) -> RenditionAnalysis? {
        let file = display(location)
        guard let playlist = loadPlaylist(location, missing: .variantResolves, referencedBy: masterFile) else {
            return nil
        }
        guard !playlist.isMaster else {
            report(.syntax, file, "a master playlist where a media playlist was expected")
            return nil
        }
        let media = MediaPlaylist(playlist)
        checkVersion(playlist, needs: media.versionNeeds, file: file)
        checkTags(media, file: file, iFrames: iFrames)
        var analysis = RenditionAnalysis(location: location, file: file, playlist: media)
        if !iFrames { measureSegments(&analysis) }
        return analysis
    }

    private func checkTags(_ media: MediaPlaylist, file: String, iFrames: Bool) {
        for problem in media.problems { report(.syntax, file, "line \(problem.line): \(problem.message)") }
        if media.segments.isEmpty { report(.syntax, file, "the playlist lists no segments") }
        if media.playlistType != "VOD" {
            let found = media.playlistType.map { "EXT-X-PLAYLIST-TYPE is \($0)" } ?? "EXT-X-PLAYLIST-TYPE is missing"
            report(.playlistTypeVOD, file, "\(found); a VOD playlist must say VOD")
        }
        if !media.hasEndList {
            report(.endList, file, "no EXT-X-ENDLIST: players treat the playlist as live and keep reloading it")
        }
        if iFrames, !media.iFramesOnly { report(.iFramesOnly, file, "an I-frame playlist without EXT-X-I-FRAMES-ONLY") }
        guard let target = media.targetDuration else {
            report(.targetDurationRounded, file, "EXT-X-TARGETDURATION is missing")
            return
        }
        let over = media.segments.filter { Self.whole($0.duration) > target }
        if let first = over.first {
            report(
                .targetDurationRounded, file,
                "EXT-X-TARGETDURATION is \(target), but \(over.count) segment(s) round to more, "
                    + "first \(first.uri) at EXTINF \(Self.seconds(first.duration))")
        }
        if let longest = media.segments.map({ Self.whole($0.duration) }).max(), longest < target, !iFrames {
            report(
                .targetDurationTight, file,
                "EXT-X-TARGETDURATION is \(target), but the longest segment rounds to \(longest)")
        }
        for segment in media.segments where segment.duration > Double(target) + 0.5 {
            report(
                .targetDurationExceeded, file,
                "\(segment.uri) lasts \(Self.seconds(segment.duration)) s (EXTINF), "
                    + "more than 0.5 s over the target duration \(target)")
        }
    }

    /// Opens every segment: existence, byte ranges, box structure, decode times, IDR starts and real durations.
    private func measureSegments(_ analysis: inout RenditionAnalysis) {
        let media = analysis.playlist
        var expected: [UInt32: UInt64] = [:]
        var warnedMissingMap = false
        for segment in media.segments {
            let location = reader.resolve(segment.uri, against: analysis.location)
            var facts = RenditionAnalysis.SegmentFacts(uri: segment.uri, bytes: 0, extinf: segment.duration)
            defer { analysis.segments.append(facts) }
            guard let range = resolveRange(segment, location: location, playlist: analysis.file) else {
                expected = [:]  // a gap in what was read is not a gap in the decode times
                continue
            }
            facts.exists = true
            facts.bytes = range.length
            guard let map = segment.map else {
                let head = (try? reader.read(location, offset: range.offset, count: 189)) ?? []
                if !warnedMissingMap, !SegmentScan.isTransportStream(head) {
                    report(.mapPresent, analysis.file, "no EXT-X-MAP, but \(segment.uri) is not a transport stream")
                    warnedMissingMap = true
                }
                continue
            }
            guard let initSegment = initSegment(map, playlist: analysis.location) else { continue }
            analysis.initSegment = analysis.initSegment ?? initSegment
            let scan: SegmentScan
            do {
                scan = try SegmentScan.scan(
                    reader, location, offset: range.offset, length: range.length,
                    defaults: Dictionary(initSegment.tracks.map { ($0.id, $0.defaults) }) { a, _ in a })
            } catch {
                report(.mediaExists, display(location), "not a readable fMP4 segment: \(error)")
                expected = [:]
                continue
            }
            if scan.fragments.isEmpty {
                report(
                    .mediaExists, display(location), "no 'moof' box (boxes: \(scan.boxTypes.joined(separator: ", ")))")
                continue
            }
            checkDecodeTimes(scan, initSegment, segment: segment, file: display(location), expected: &expected)
            measure(scan, initSegment, location: location, into: &facts, analysis: &analysis)
        }
        checkDurations(analysis)
    }

    /// The bytes `segment` covers, or nil (with a finding) when its resource is missing or too short.
    func resolveRange(
        _ segment: MediaPlaylist.Segment, location: String, playlist file: String
    ) -> MediaPlaylist.ByteRange? {
        let size: Int64
        do { size = try reader.size(of: location) } catch {
            report(
                .mediaExists, file,
                error.isNotFound ? "\(segment.uri) does not exist" : "\(segment.uri) cannot be read: \(error.reason)")
            return nil
        }
        guard let range = segment.byteRange else { return MediaPlaylist.ByteRange(length: size, offset: 0) }
        guard range.end <= size else {
            report(
                .byteRange, file,
                "EXT-X-BYTERANGE \(range.length)@\(range.offset) of \(segment.uri) runs past its end (\(size) bytes)")
            return nil
        }
        return range
    }

    /// 7.3: each track's tfdt equals the previous segment's tfdt plus its duration (reset at a discontinuity).
    private func checkDecodeTimes(
        _ scan: SegmentScan, _ initSegment: InitSegment, segment: MediaPlaylist.Segment, file: String,
        expected: inout [UInt32: UInt64]
    ) {
        if segment.discontinuity { expected = [:] }
        for track in initSegment.tracks {
            for run in scan.runs(of: track.id) {
                guard let base = run.baseDecodeTime else {
                    report(.decodeTime, file, "track \(track.id) has no 'tfdt' box")
                    continue
                }
                if let next = expected[track.id], next != base {
                    let scale = Double(max(track.timescale, 1))
                    report(
                        .decodeTime, file,
                        "track \(track.id) (\(track.handler)) starts at decode time \(base) "
                            + "(\(Self.seconds(Double(base) / scale)) s) but the previous fragment ends at \(next) "
                            + "(\(Self.seconds(Double(next) / scale)) s)")
                }
                // tfdt is the segment's own 64-bit number: near UInt64.max the next one cannot be computed.
                let (next, overflow) = base.addingReportingOverflow(run.duration)
                if overflow {
                    report(
                        .decodeTime, file,
                        "track \(track.id) (\(track.handler)) starts at decode time \(base) and its samples last "
                            + "\(run.duration): the end does not fit in 64 bits")
                    expected[track.id] = nil
                } else {
                    expected[track.id] = next
                }
            }
        }
    }

    /// Real duration, start, sync samples and the IDR test of one segment's main track.
    private func measure(
        _ scan: SegmentScan, _ initSegment: InitSegment, location: String,
        into facts: inout RenditionAnalysis.SegmentFacts, analysis: inout RenditionAnalysis
    ) {
        guard let track = initSegment.video ?? initSegment.tracks.first, track.timescale > 0 else { return }
        let scale = Double(track.timescale)
        let runs = scan.runs(of: track.id)
        guard let firstRun = runs.first else {
            report(.mediaExists, display(location), "no samples of track \(track.id) (\(track.handler))")
            return
        }
        var time = firstRun.baseDecodeTime ?? 0
        facts.start = firstRun.baseDecodeTime.map { Double($0) / scale }
        var total: UInt64 = 0
        for run in runs {
            if let base = run.baseDecodeTime { time = base }
            for sample in run.samples {
                if sample.isSync { facts.keyframes.append(Double(time) / scale) }
                analysis.sampleDurations[sample.duration, default: 0] += 1
                // Saturates: a tfdt near UInt64.max plus a duration would trap.
                let (next, overflow) = time.addingReportingOverflow(UInt64(sample.duration))
                time = overflow ? .max : next
                total += UInt64(sample.duration)
            }
        }
        facts.duration = Double(total) / scale
        guard track.isVideo, let first = firstRun.samples.first else { return }
        let verdict = keyFrame(first, track: track, location: location)
        facts.startsWithIDR = verdict.isKey
        if !verdict.isKey {
            report(.startsWithIDR, display(location), "the first video sample is not an IDR: \(verdict.seen)")
        }
    }

    /// Whether `sample` is a sync sample and its bytes open with an IDR (or AV1 key frame).
    func keyFrame(_ sample: MovieFragment.Sample, track: InitSegment.Track, location: String) -> KeyFrame {
        guard sample.isSync else { return KeyFrame(isKey: false, seen: "its sample flags mark it non-sync") }
        guard let format = track.format, let configuration = track.configuration else {
            return KeyFrame(isKey: false, seen: "the track has no codec configuration")
        }
        let head: [UInt8]
        do {
            head = try reader.read(
                location, offset: sample.offset, count: min(Int(sample.size), SegmentScan.sampleHead))
        } catch {
            return KeyFrame(isKey: false, seen: "its bytes cannot be read (\(error.reason))")
        }
        guard head.count == min(Int(sample.size), SegmentScan.sampleHead) else {
            return KeyFrame(isKey: false, seen: "its bytes lie past the end of the file")
        }
        let verdict = KeyFrame.classify(
            head, sampleSize: Int(sample.size), format: format, configuration: configuration)
        return verdict.isKey
            ? verdict : KeyFrame(isKey: false, seen: "sync flag set, but it starts with " + verdict.seen)
    }

    /// 8.1 and 7.7 against the durations read from the segments.
    private func checkDurations(_ analysis: RenditionAnalysis) {
        let tolerance = (analysis.frameDuration ?? 0.04) + 0.0005
        var drift = 0.0
        var perSegmentReported = false
        for segment in analysis.segments {
            guard let real = segment.duration else { continue }
            if abs(segment.extinf - real) > tolerance {
                report(
                    .extinfAccurate, analysis.file,
                    "\(segment.uri): EXTINF \(Self.seconds(segment.extinf)) s, "
                        + "but its samples last \(Self.seconds(real)) s (tolerance one frame, \(Self.seconds(tolerance)) s)"
                )
                perSegmentReported = true
            }
            drift += segment.extinf - real
            if !perSegmentReported, abs(drift) > tolerance {
                report(
                    .extinfAccurate, analysis.file,
                    "the EXTINF durations up to \(segment.uri) add up to "
                        + "\(Self.seconds(drift)) s more than the samples (tolerance one frame)")
                perSegmentReported = true
            }
            if let target = analysis.playlist.targetDuration, real > Double(target) + 0.5,
                segment.extinf <= Double(target) + 0.5
            {
                report(
                    .targetDurationExceeded, analysis.file,
                    "\(segment.uri) holds \(Self.seconds(real)) s of samples, "
                        + "more than 0.5 s over the target duration \(target)")
            }
        }
    }

    static func seconds(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        // An EXTINF (or a sum of them) may be any finite Double, far past what Int holds.
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
    }

    /// `value` rounded to an Int, saturating: measured rates divide by EXTINFs a playlist may make tiny, and
    /// durations are what the playlist says, so either may be past Int's range (or infinite), where `Int(_:)` traps.
    static func whole(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        let rounded = value.rounded()
        if rounded >= 0x1p63 { return .max }
        if rounded < -0x1p63 { return .min }
        return Int(rounded)
    }
}
