/// What of one running job's provisional rendition (issue 64) is already in the library: the worker publishes it
/// while the job's ladder is still being made, segments before the playlists that list them, and the playlists again
/// as they grow. Pure bookkeeping; `Worker+Playable` does the I/O.
struct PlayableSync {
    /// `playable.json` as last read (size and mtime): a rewrite (`complete`) is read again.
    var outcomeStamp: (size: Int64, modified: Int64)?
    var outcome: PlayableOutcome?
    /// Files (relative to `playable/`) already stored, each once: segments and init segments never change.
    var stored: Set<String> = []
    /// The playlists' text as last stored, so one that did not change is not stored again.
    var playlists: [String: [UInt8]] = [:]
    /// The catalog row names the provisional master: the post is in the feed.
    var isInFeed = false
    /// Every playlist ends with `#EXT-X-ENDLIST` in the library: nothing more to do.
    var isFinished = false
    /// When the playlists were last read (monotonic seconds).
    var lastLook = -Double.infinity
    /// Why publishing it stopped (a store or catalog failure): the ladder goes on without it.
    var abandoned: String?

    /// How often a growing playlist is read again: well under a segment's length.
    static let lookInterval = 0.05

    /// Whether to look at the job's `playable/` now.
    func isDue(now: Double) -> Bool {
        abandoned == nil && !isFinished && now - lastLook >= Self.lookInterval
    }

    /// The init segments (`#EXT-X-MAP`) a media playlist names.
    static func initSegments(listedIn playlist: String) -> [String] {
        playlist.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix("#EXT-X-MAP:"), let start = line.firstRange(of: "URI=\"")?.upperBound,
                let end = line[start...].firstIndex(of: "\"")
            else { return nil }
            return String(line[start..<end])
        }
    }

    /// The media segments a playlist lists, in order.
    static func segments(listedIn playlist: String) -> [String] {
        playlist.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
            .map(String.init)
    }

    /// Segments stored per look once the post is in the feed: a long remuxed upload is stored a few at a time, its
    /// playlist growing, so the worker's loop goes on renewing leases in between.
    static let segmentsPerLook = 8
    /// Segments a post needs in the library before it enters the feed: a player starts on them.
    static let segmentsBeforeFeed = 2

    /// A name a playlist may list: one plain file in the rendition's own folder, nothing that climbs out of it.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name != "." && name != ".."
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    /// Whether a media playlist is final.
    static func isEnded(_ playlist: String) -> Bool { playlist.contains("#EXT-X-ENDLIST") }

    /// The media playlist as far as its first `count` segments, as the library may show it while the rest are still
    /// being stored: an `EVENT` playlist (a player reads it again for more), ended only when it lists every segment
    /// of an ended playlist. Segments keep their tags and order; a `VOD` playlist becomes `EVENT`, since a `VOD` one
    /// may never change (RFC 8216, 4.3.3.5).
    static func prefix(of playlist: String, segments count: Int) -> String {
        let all = playlist.split(whereSeparator: \.isNewline)
        let isURI = { (line: Substring) in !line.hasPrefix("#") && !line.allSatisfy(\.isWhitespace) }
        var lines: [Substring] = []
        var listed = 0
        for line in all {
            if line.hasPrefix("#EXT-X-ENDLIST") { continue }
            if line.hasPrefix("#EXT-X-PLAYLIST-TYPE:") {
                lines.append("#EXT-X-PLAYLIST-TYPE:EVENT")
                continue
            }
            // The next segment's tags, or its URI: the prefix ends before them.
            if listed == count, isURI(line) || line.hasPrefix("#EXTINF") { break }
            if isURI(line) { listed += 1 }
            lines.append(line)
        }
        let ended = listed == all.filter(isURI).count && isEnded(playlist)
        return lines.joined(separator: "\n") + "\n" + (ended ? "#EXT-X-ENDLIST\n" : "")
    }

    /// A growing playlist closed as it stands (its job ended without finishing it): every segment it lists is whole,
    /// so a player plays them and stops instead of waiting for more.
    static func ended(_ playlist: String) -> String {
        guard !isEnded(playlist) else { return playlist }
        return playlist + (playlist.hasSuffix("\n") ? "" : "\n") + "#EXT-X-ENDLIST\n"
    }
}
