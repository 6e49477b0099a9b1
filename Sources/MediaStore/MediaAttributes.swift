internal import MediaModel

/// What an object is served with: its `Content-Type`, `Cache-Control` and user metadata (a content hash).
package struct MediaAttributes: Sendable, Equatable {
    package var contentType: String
    package var cacheControl: String
    package var metadata: [String: String]

    /// The user-metadata name under which an object carries its SHA-256 (hex), whoever wrote it (a publish, an
    /// original stored at intake, `reel library copy`), so each recognises the others' writes.
    package static let contentHashName = "sha256"

    package init(contentType: String, cacheControl: String, metadata: [String: String] = [:]) {
        self.contentType = contentType
        self.cacheControl = cacheControl
        self.metadata = metadata
    }

    /// A published file's headers, from its key (`MediaPolicy`): a playlist briefly, everything else for a year.
    package static func media(named name: String, metadata: [String: String] = [:]) -> MediaAttributes {
        let contentType = MediaPolicy.contentType(forName: name[...])
        return MediaAttributes(
            contentType: contentType, cacheControl: MediaPolicy.cacheControl(forKey: name),
            metadata: metadata)
    }

    /// A file nobody outside Reel reads (an original, a reason file, an upload's bookkeeping).
    package static func `private`(
        contentType: String = "application/octet-stream", metadata: [String: String] = [:]
    )
        -> MediaAttributes
    {
        MediaAttributes(contentType: contentType, cacheControl: "private, no-store", metadata: metadata)
    }
}
