/// Each media segment's first video sample, located for an I-frame playlist (Apple's authoring spec 6.1): a byte
/// range from the segment's first 'moof' through the end of that sample, which must be a sync sample. Reel's
/// segments hold one fragment each, so one entry per segment is what a range can reach; its EXTINF is the
/// segment's, the time until the next listed I-frame.
package struct IFrameIndex: Sendable {
    package struct Entry: Sendable, Equatable {
        package let uri: String
        package let offset: Int64
        package let length: Int64
        package let duration: Double
    }

    package let initURI: String
    /// The video's RFC 6381 codec string (no audio: an I-frame playlist carries only pictures).
    package let codec: String
    package let width: Int
    package let height: Int
    package let targetDuration: Int
    package let entries: [Entry]

    /// Peak I-frame bit rate: the largest range over its EXTINF, as BANDWIDTH wants it.
    package var peakBitRate: Int {
        Int((entries.map { $0.duration > 0 ? Double($0.length * 8) / $0.duration : 0 }.max() ?? 0).rounded(.up))
    }

    /// All ranges over the whole duration, as AVERAGE-BANDWIDTH wants it.
    package var averageBitRate: Int {
        let seconds = entries.reduce(0) { $0 + $1.duration }
        return seconds > 0 ? Int((Double(entries.reduce(0) { $0 + $1.length } * 8) / seconds).rounded()) : 0
    }

    /// Reads the media playlist at `path` (fMP4 with an EXT-X-MAP), its init segment and every segment's first
    /// 'moof'. - Throws: `MediaParseError` when a segment has no fragment or does not open on a sync sample,
    /// `HLSResourceError` when a file cannot be read.
    package static func build(
        mediaPlaylist path: String, reader: any HLSResourceReader = LocalFiles()
    ) throws -> IFrameIndex {
        let size = try reader.size(of: path)
        let text = String(decoding: try reader.read(path, offset: 0, count: Int(size)), as: UTF8.self)
        let playlist = MediaPlaylist(Playlist(text: text))
        guard let map = playlist.segments.first?.map, map.byteRange == nil else {
            throw MediaParseError("\(path): no EXT-X-MAP (whole file) before the first segment")
        }
        let initLocation = reader.resolve(map.uri, against: path)
        let initBytes = try reader.read(initLocation, offset: 0, count: Int(try reader.size(of: initLocation)))
        let initSegment = try InitSegment.parse(initBytes)
        guard let track = initSegment.video, let codec = track.configuration?.codec else {
            throw MediaParseError("\(map.uri): no video track with a codec configuration")
        }
        var entries: [Entry] = []
        for segment in playlist.segments {
            guard segment.byteRange == nil else {
                throw MediaParseError("\(segment.uri): segments with byte ranges are not indexed")
            }
            let location = reader.resolve(segment.uri, against: path)
            let scan = try SegmentScan.scan(
                reader, location, offset: 0, length: try reader.size(of: location),
                defaults: [track.id: track.defaults])
            guard let fragment = scan.fragments.first,
                let sample = fragment.tracks.first(where: { $0.trackID == track.id })?.samples.first
            else {
                throw MediaParseError("\(segment.uri): no fragment with a video sample")
            }
            guard sample.isSync else {
                throw MediaParseError("\(segment.uri): the first video sample is not a sync sample")
            }
            entries.append(
                Entry(
                    uri: segment.uri, offset: fragment.start,
                    length: sample.offset + Int64(sample.size) - fragment.start, duration: segment.duration))
        }
        return IFrameIndex(
            initURI: map.uri, codec: codec, width: track.displayWidth, height: track.displayHeight,
            targetDuration: playlist.targetDuration ?? Int(entries.map(\.duration).max()?.rounded() ?? 0),
            entries: entries)
    }

    /// The I-frame playlist's text.
    package var playlistText: String {
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(targetDuration)", "#EXT-X-MEDIA-SEQUENCE:0",
            "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-I-FRAMES-ONLY", "#EXT-X-MAP:URI=\"\(initURI)\"",
        ]
        for entry in entries {
            let milliseconds = Int((entry.duration * 1000).rounded())
            let fraction = String(milliseconds % 1000)
            lines.append(
                "#EXTINF:\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count) + fraction),")
            lines.append("#EXT-X-BYTERANGE:\(entry.length)@\(entry.offset)")
            lines.append(entry.uri)
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }
}
