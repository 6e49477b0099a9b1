/// How a published file is served, from its name alone: its `Content-Type` and its `Cache-Control`. One table for
/// the media route, which reads files, and for object storage, where each object carries both headers. Pure.
public enum MediaPolicy {
    public static let playlistType = "application/vnd.apple.mpegurl"
    /// Playlists are read again soon (a live edit, a re-published rendition would show within ten seconds).
    public static let playlistCacheControl = "public, max-age=10"
    /// A provisional rendition's playlists (issue 64) grow, and its master gives way to the ladder's: a cached copy
    /// must not outlive a segment's length.
    public static let playablePlaylistCacheControl = "public, max-age=1"
    /// Segments, init segments, posters, storyboards and images never change once published.
    public static let immutableCacheControl = "public, max-age=31536000, immutable"

    /// The media type for a file named `name`, by its extension; `application/octet-stream` when unknown.
    public static func contentType(forName name: Substring) -> String {
        let dot = name.lastIndex(of: ".")
        let slash = name.lastIndex(of: "/")
        guard let dot, slash.map({ $0 < dot }) ?? true else { return "application/octet-stream" }
        switch name[name.index(after: dot)...].lowercased() {
        case "m3u8": return playlistType
        case "mp4", "m4s": return "video/mp4"
        case "webp": return "image/webp"
        case "jpg", "jpeg": return "image/jpeg"
        case "json": return "application/json"
        // Storyboard cues; WebVTT is UTF-8 by definition, said explicitly for clients that sniff otherwise.
        case "vtt": return "text/vtt; charset=utf-8"
        default: return "application/octet-stream"
        }
    }

    /// `public, max-age=10` for a playlist, a year and immutable for everything else.
    public static func cacheControl(forContentType contentType: String) -> String {
        contentType == playlistType ? playlistCacheControl : immutableCacheControl
    }

    /// `cacheControl(forContentType:)` for the library object `key`, whose playlists in a provisional rendition's
    /// folder get one second.
    public static func cacheControl(forKey key: String) -> String {
        let contentType = contentType(forName: key[...])
        return contentType == playlistType && LibraryLayout.isPlayable(key)
            ? playablePlaylistCacheControl : cacheControl(forContentType: contentType)
    }
}
