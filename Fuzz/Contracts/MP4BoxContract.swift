internal import HLSCheck

/// The fMP4 that `reel hls-check URL` fetches from someone else's server: an init segment and media segments. Boxes
/// tile the bytes they were read from; a fragment's samples lie end to end from their run's data offset, a million
/// at most; and no box, run or sample head traps the reader, whatever it claims.
enum MP4BoxContract {
    static let target = FuzzTarget(
        name: "mp4", contract: "boxes tile the file; a run's samples lie end to end; nothing traps"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        if let boxes = try? BoxHeader.children(of: bytes, from: 0, to: bytes.count) {
            var end: Int64 = 0
            for box in boxes {
                try expect(
                    box.start == end && box.size >= Int64(box.headerSize) && box.end <= Int64(bytes.count),
                    "box '\(box.type)' at \(box.start) of \(box.size) bytes does not follow the one ending at \(end)")
                end = box.end
            }
        }
        let initSegment = try? InitSegment.parse(bytes)
        let defaults = Dictionary(
            (initSegment?.tracks ?? []).map { ($0.id, $0.defaults) }, uniquingKeysWith: { first, _ in first })
        // The same bytes as a media segment: every moof in turn, as the checker reads them.
        var offset = 0
        while offset + 8 <= bytes.count, let box = try? BoxHeader.parse(bytes, at: offset, limit: Int64(bytes.count)) {
            defer { offset = Int(box.end) }
            guard box.type == "moof" else { continue }
            guard
                let fragment = try? MovieFragment.parse(
                    Array(bytes[offset..<Int(box.end)]), at: box.start, defaults: defaults)
            else { continue }
            try expect(
                fragment.tracks.reduce(0) { $0 + $1.samples.count } <= Int(MovieFragment.sampleLimit),
                "a fragment at \(box.start) holds more than \(MovieFragment.sampleLimit) samples")
            for run in fragment.tracks {
                for (sample, next) in zip(run.samples, run.samples.dropFirst()) {
                    try expect(
                        next.offset == sample.offset + Int64(sample.size),
                        "track \(run.trackID): a sample at \(next.offset) after \(sample.size) bytes at \(sample.offset)"
                    )
                }
                guard let track = initSegment?.tracks.first(where: { $0.id == run.trackID }), let format = track.format,
                    let configuration = track.configuration, let first = run.samples.first,
                    first.offset >= 0, first.offset < Int64(bytes.count)
                else { continue }
                let head = Array(bytes[Int(first.offset)..<min(bytes.count, Int(first.offset) + 64)])
                _ = KeyFrame.classify(head, sampleSize: Int(first.size), format: format, configuration: configuration)
            }
        }
    }
}
