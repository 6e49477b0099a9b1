/// Conditional requests, for feed pages and media files alike.
package enum EntityTag {
    /// RFC 9110 §13.1.2: `*`, or any listed tag equal to ours under the weak comparison (a `W/` prefix is ignored).
    /// Compared as bytes: a comma before a combining mark is one Character, which hid the list's split (found by
    /// the etag fuzz target).
    package static func matches(_ ifNoneMatch: String, _ etag: String) -> Bool {
        let ours = Array(etag.utf8)
        return Array(ifNoneMatch.utf8).split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).contains {
            candidate in
            var tag = candidate
            while let first = tag.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { tag.removeFirst() }
            while let last = tag.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { tag.removeLast() }
            if tag.elementsEqual("*".utf8) { return true }
            if tag.starts(with: "W/".utf8) { tag = tag.dropFirst(2) }
            return tag.elementsEqual(ours)
        }
    }
}
