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

    /// The segment and init-segment names a media playlist lists, in order (pure).
    static func files(listedIn playlist: String) -> [String] {
        var names: [String] = []
        for line in playlist.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("#EXT-X-MAP:") {
                if let start = line.firstRange(of: "URI=\"")?.upperBound,
                    let end = line[start...].firstIndex(of: "\"")
                {
                    names.append(String(line[start..<end]))
                }
            } else if !line.hasPrefix("#"), !line.allSatisfy(\.isWhitespace) {
                names.append(String(line))
            }
        }
        return names
    }

    /// A name a playlist may list: one plain file in the rendition's own folder, nothing that climbs out of it.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name != "." && name != ".."
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    /// Whether a media playlist is final.
    static func isEnded(_ playlist: String) -> Bool { playlist.contains("#EXT-X-ENDLIST") }

    /// A growing playlist closed as it stands (its job ended without finishing it): every segment it lists is whole,
    /// so a player plays them and stops instead of waiting for more.
    static func ended(_ playlist: String) -> String {
        guard !isEnded(playlist) else { return playlist }
        return playlist + (playlist.hasSuffix("\n") ? "" : "\n") + "#EXT-X-ENDLIST\n"
    }
}
