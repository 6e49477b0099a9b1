/// Where clients fetch the library's files: `/media/` by default (this server's `/media/**` route), or a CDN or an
/// object store's public address. Feed items are rendered with it per server, so changing it needs no data migration.
package struct MediaBaseURL: Sendable, Equatable, CustomStringConvertible {
    /// The base, always ending in `/`, in bytes that need no escaping inside a JSON string.
    let bytes: [UInt8]

    package static let `default` = MediaBaseURL(checked: "/media/")

    package var description: String { String(decoding: bytes, as: UTF8.self) }

    /// Why a base URL was refused.
    package struct Invalid: Error, Equatable, CustomStringConvertible {
        package let text: String
        package let reason: String
        package var description: String { "--media-base-url \"\(text.prefix(200))\" \(reason)" }
    }

    /// An absolute path (`/media/`) or an `http://` or `https://` URL. A missing final `/` is added.
    package init(_ text: String) throws(Invalid) {
        guard text.utf8.count <= 1024 else { throw Invalid(text: text, reason: "is longer than 1024 bytes") }
        guard text.hasPrefix("/") || text.hasPrefix("https://") || text.hasPrefix("http://") else {
            throw Invalid(text: text, reason: "must be an absolute path (/media/) or start with http:// or https://")
        }
        if text.hasPrefix("//") {
            throw Invalid(text: text, reason: "is scheme-relative; write the scheme (https://...)")
        }
        for byte in text.utf8 {
            // Printable ASCII, without what a URL or a JSON string cannot carry bare.
            guard (0x21...0x7E).contains(byte), !"\"\\<>`{}|^ ".utf8.contains(byte) else {
                throw Invalid(
                    text: text,
                    reason:
                        "contains \(byte < 0x21 || byte > 0x7E ? "a control, space or non-ASCII byte" : "\"\(Character(Unicode.Scalar(byte)))\""); percent-encode it"
                )
            }
        }
        if let hostStart = text.firstRange(of: "://")?.upperBound,
            text[hostStart...].first == "/" || text[hostStart...].isEmpty
        {
            throw Invalid(text: text, reason: "has no host")
        }
        self.init(checked: text.hasSuffix("/") ? text : text + "/")
    }

    private init(checked: String) { bytes = Array(checked.utf8) }

    /// Bytes already checked, as `signed(_:)` makes them.
    init(checkedBytes: [UInt8]) { bytes = checkedBytes }
}
