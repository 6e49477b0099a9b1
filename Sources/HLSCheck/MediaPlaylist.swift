/// A media playlist: its segments with their durations, byte ranges and init sections (RFC 8216 §4.3.2–§4.3.3).
package struct MediaPlaylist {
    /// A sub-range of a resource; the offset is resolved (RFC 8216 §4.3.2.2: a missing offset continues the
    /// previous segment's range in the same resource).
    struct ByteRange: Equatable {
        var length: Int64
        var offset: Int64
        /// Saturates: a playlist may say `9223372036854775807@9223372036854775807`, whose sum would trap. A range
        /// ending at Int64.max runs past any resource, which `resolveRange` reports.
        var end: Int64 {
            let (sum, overflow) = offset.addingReportingOverflow(length)
            return overflow ? .max : sum
        }
    }

    struct Map: Equatable {
        var line: Int
        var uri: String
        var byteRange: ByteRange?
    }

    struct Segment {
        var line: Int
        var uri: String
        var duration: Double
        var byteRange: ByteRange?
        var map: Map?
        var discontinuity: Bool
    }

    var targetDuration: Int?
    var playlistType: String?
    var hasEndList = false
    var independentSegments = false
    var iFramesOnly = false
    var segments: [Segment] = []
    var problems: [(line: Int, message: String)] = []
    var versionNeeds: [VersionNeed] = []

    var duration: Double { segments.reduce(0) { $0 + $1.duration } }

    package init(_ playlist: Playlist) {
        var duration: Double?
        var range: ByteRange?
        var map: Map?
        var discontinuity = false
        var previous: (uri: String, end: Int64)?
        for line in playlist.lines {
            if line.isURI {
                let uri = line.text.trimmingSpaces()
                guard let seconds = duration else {
                    problems.append((line.number, "a segment URI without an EXTINF before it: \(uri)"))
                    continue
                }
                if var pendingRange = range {
                    if pendingRange.offset < 0 {
                        if let previous, previous.uri == uri {
                            pendingRange.offset = previous.end
                        } else {
                            problems.append(
                                (
                                    line.number,
                                    "EXT-X-BYTERANGE without an offset, but the previous segment is not a range of \(uri)"
                                ))
                            pendingRange.offset = 0
                        }
                    }
                    range = pendingRange
                }
                segments.append(
                    Segment(
                        line: line.number, uri: uri, duration: seconds, byteRange: range, map: map,
                        discontinuity: discontinuity))
                previous = range.map { (uri, $0.end) }
                duration = nil
                range = nil
                discontinuity = false
                continue
            }
            guard line.isTag else { continue }
            switch line.tagName {
            case "EXTINF":
                let text = String(line.value.prefix { $0 != "," }).trimmingSpaces()
                // Double("inf") reads: an infinite EXTINF is as much "not a number" as a word is.
                if let seconds = Double(playlistText: text), seconds >= 0, seconds.isFinite {
                    duration = seconds
                    if Int(text) == nil {
                        versionNeeds.append(VersionNeed(version: 3, reason: "a decimal EXTINF duration (\(text))"))
                    }
                } else {
                    // Shown escaped: a NUL or other control byte would vanish from the report.
                    let shown = text.unicodeScalars.map { $0.escaped(asASCII: false) }.joined()
                    problems.append((line.number, "EXTINF duration '\(shown)' is not a number"))
                    duration = 0
                }
            case "EXT-X-TARGETDURATION":
                targetDuration = Int(line.value.trimmingCharacters())
                if targetDuration == nil {
                    problems.append((line.number, "EXT-X-TARGETDURATION '\(line.value)' is not an integer"))
                }
            case "EXT-X-PLAYLIST-TYPE": playlistType = String(line.value).trimmingSpaces()
            case "EXT-X-ENDLIST": hasEndList = true
            case "EXT-X-INDEPENDENT-SEGMENTS": independentSegments = true
            case "EXT-X-I-FRAMES-ONLY":
                iFramesOnly = true
                versionNeeds.append(VersionNeed(version: 4, reason: "EXT-X-I-FRAMES-ONLY"))
            case "EXT-X-DISCONTINUITY": discontinuity = true
            case "EXT-X-BYTERANGE":
                if let parsed = Self.byteRange(String(line.value)) {
                    range = parsed
                } else {
                    problems.append((line.number, "EXT-X-BYTERANGE '\(line.value)' is not <n>[@<o>]"))
                }
                versionNeeds.append(VersionNeed(version: 4, reason: "EXT-X-BYTERANGE"))
            case "EXT-X-MAP":
                let attributes = AttributeList(line.value)
                guard let uri = attributes.quoted("URI") else {
                    problems.append((line.number, "EXT-X-MAP without a quoted URI"))
                    continue
                }
                var mapRange: ByteRange?
                if let text = attributes.quoted("BYTERANGE") {
                    mapRange = Self.byteRange(text).map { ByteRange(length: $0.length, offset: max(0, $0.offset)) }
                    if mapRange == nil {
                        problems.append((line.number, "EXT-X-MAP BYTERANGE '\(text)' is not <n>[@<o>]"))
                    }
                }
                map = Map(line: line.number, uri: uri, byteRange: mapRange)
            case "EXT-X-KEY":
                let attributes = AttributeList(line.value)
                if attributes.has("IV") {
                    versionNeeds.append(VersionNeed(version: 2, reason: "the IV attribute of EXT-X-KEY"))
                }
                if attributes.has("KEYFORMAT") || attributes.has("KEYFORMATVERSIONS") {
                    versionNeeds.append(VersionNeed(version: 5, reason: "KEYFORMAT in EXT-X-KEY"))
                }
            case "EXT-X-DEFINE": versionNeeds.append(VersionNeed(version: 8, reason: "EXT-X-DEFINE"))
            case "EXT-X-STREAM-INF", "EXT-X-I-FRAME-STREAM-INF", "EXT-X-MEDIA":
                problems.append(
                    (line.number, "\(line.tagName) is a master playlist tag and MUST NOT be in a media playlist"))
            default: break
            }
        }
        if map != nil {
            versionNeeds.append(
                iFramesOnly
                    ? VersionNeed(version: 5, reason: "EXT-X-MAP in an I-frame playlist")
                    : VersionNeed(version: 6, reason: "EXT-X-MAP"))
        }
    }

    /// `<n>[@<o>]`; a missing offset is returned as -1 for the caller to resolve.
    static func byteRange(_ text: String) -> ByteRange? {
        let parts = text.trimmingSpaces().split(separator: "@", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let length = Int64(parts[0]), length >= 0 else { return nil }
        if parts.count == 1 { return ByteRange(length: length, offset: -1) }
        guard let offset = Int64(parts[1]), offset >= 0 else { return nil }
        return ByteRange(length: length, offset: offset)
    }
}

extension Substring {
    func trimmingCharacters() -> String { String(self).trimmingSpaces() }
}
