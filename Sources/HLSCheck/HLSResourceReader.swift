/// Where the checker gets playlists and media: local files, or (in the CLI) HTTP. Locations are strings the
/// reader itself produced with `resolve`, so a file reader and a URL reader each keep their own syntax.
package protocol HLSResourceReader: Sendable {
    /// The location that `uri`, written in the playlist at `base`, refers to.
    func resolve(_ uri: String, against base: String) -> String
    /// The size of the resource in bytes.
    /// - Throws: `HLSResourceError` (`isNotFound` when nothing is there).
    func size(of location: String) throws(HLSResourceError) -> Int64
    /// Up to `count` bytes from `offset`; fewer at the end.
    /// - Throws: `HLSResourceError` (`isNotFound` when nothing is there).
    func read(_ location: String, offset: Int64, count: Int) throws(HLSResourceError) -> [UInt8]
}

/// A resource that could not be read: which one, and why.
package struct HLSResourceError: Error, Sendable, CustomStringConvertible {
    package let location: String
    package let reason: String
    package let isNotFound: Bool

    package init(location: String, reason: String, isNotFound: Bool) {
        self.location = location
        self.reason = reason
        self.isNotFound = isNotFound
    }

    package var description: String { "\(location): \(reason)" }
}

extension HLSResourceReader {
    /// The whole resource, refused past `limit` bytes (playlists and init segments are small).
    func contents(of location: String, limit: Int = 16 << 20) throws(HLSResourceError) -> [UInt8] {
        let size = try size(of: location)
        guard size <= Int64(limit) else {
            throw HLSResourceError(
                location: location, reason: "\(size) bytes is more than the \(limit) this checker reads whole",
                isNotFound: false)
        }
        return try read(location, offset: 0, count: Int(size))
    }
}
