internal import FeedServer
internal import MediaStore

/// `If-None-Match` against an entity tag: the tag itself, its weak form and `*` always match, in any list.
enum EntityTagContract {
    static let target = FuzzTarget(
        name: "etag", contract: "a list holding the tag, W/tag or * matches; matching is the same for any order"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        // Up to the first newline the tag; the rest the header.
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        // Filtered by scalar: a comma with a combining mark after it is one Character, not a comma.
        let kept = parts[0].unicodeScalars.filter { !["\"", ",", " ", "\t"].contains($0) }
        let etag = "\"" + String(String.UnicodeScalarView(kept)) + "\""
        let header = parts.count > 1 ? String(parts[1]) : ""
        let matched = EntityTag.matches(header, etag)
        try expect(EntityTag.matches(header + "," + etag, etag), "\(header.debugDescription), \(etag) did not match")
        try expect(EntityTag.matches("W/" + etag + "," + header, etag), "W/\(etag) in front did not match")
        try expect(EntityTag.matches(header + ", *", etag), "\(header.debugDescription), * did not match")
        let reversed = header.split(separator: ",", omittingEmptySubsequences: false).reversed().joined(separator: ",")
        try expect(
            EntityTag.matches(reversed, etag) == matched, "\(header.debugDescription) reversed matched otherwise")
    }
}
