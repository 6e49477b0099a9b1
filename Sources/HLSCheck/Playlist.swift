/// A playlist as written (RFC 8216 §4): its tags in order with line numbers, classified as master or media.
/// Parsing never fails; what a player would reject is collected in `problems` for the checker to report.
package struct Playlist {
    package struct Line {
        var number: Int
        package var text: String
        var isTag: Bool { text.hasPrefix("#EXT") }
        var isURI: Bool { !text.hasPrefix("#") }

        /// "EXT-X-VERSION" for "#EXT-X-VERSION:7".
        var tagName: String {
            let body = text.dropFirst()
            return String(body[..<(body.firstIndex(of: ":") ?? body.endIndex)])
        }

        /// What follows the first colon.
        var value: Substring {
            guard let colon = text.firstIndex(of: ":") else { return "" }
            return text[text.index(after: colon)...]
        }
    }

    package var lines: [Line]
    package var hasHeader: Bool
    package var isMaster: Bool

    package init(text: String) {
        var lines: [Line] = []
        // RFC 8216 §4.1: lines end in LF or CRLF. A Swift String holds CRLF as one Character, never equal to "\n".
        let rows = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, raw) in rows.enumerated() {
            var line = String(raw)
            while line.hasSuffix("\r") { line.removeLast() }  // stray CRs at the end are not the line's
            if line.trimmingSpaces().isEmpty { continue }
            lines.append(Line(number: index + 1, text: line))
        }
        self.lines = lines
        hasHeader = lines.first?.text == "#EXTM3U"
        let masterTags: Set = ["EXT-X-STREAM-INF", "EXT-X-I-FRAME-STREAM-INF", "EXT-X-MEDIA", "EXT-X-SESSION-DATA"]
        isMaster = lines.contains { $0.isTag && masterTags.contains($0.tagName) }
    }

    /// Every EXT-X-VERSION value, in order (more than one is itself an error).
    var versions: [Int] { lines.filter { $0.isTag && $0.tagName == "EXT-X-VERSION" }.compactMap { Int($0.value) } }

    func has(_ tag: String) -> Bool { lines.contains { $0.isTag && $0.tagName == tag } }

    func first(_ tag: String) -> Line? { lines.first { $0.isTag && $0.tagName == tag } }
}

/// The version a playlist needs for the features it uses (RFC 8216 §7), with the feature that needs it.
struct VersionNeed: Equatable {
    var version: Int
    var reason: String

    static func highest(_ needs: [VersionNeed]) -> VersionNeed {
        needs.max { $0.version < $1.version } ?? VersionNeed(version: 1, reason: "")
    }
}
