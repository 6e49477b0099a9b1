/// Conditional requests, for feed pages and media files alike.
enum EntityTag {
    /// RFC 9110 §13.1.2: `*`, or any listed tag equal to ours under the weak comparison (a `W/` prefix is ignored).
    static func matches(_ ifNoneMatch: String, _ etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingPrefixAndSuffixSpaces
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == etag
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace around list items).
    var trimmingPrefixAndSuffixSpaces: Substring {
        guard let first = firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return self[first...last]
    }
}
