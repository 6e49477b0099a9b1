internal import Foundation
#if canImport(Glibc)
internal import Glibc
#endif

/// What the media route needs to know about one file: its type, caching policy and validator.
struct MediaFile: Sendable {
    let path: String
    let size: Int
    let etag: String
    let lastModified: Date

    init?(path: String) {
        // FileManager rather than stat(2): in this module's imports `struct stat` resolves to NIO's copy.
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue,
              let modified = attributes[.modificationDate] as? Date else { return nil }
        self.path = path
        self.size = size
        let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        let microseconds = Int64((modified.timeIntervalSince1970 * 1_000_000).rounded())
        // Published files never change in place (the worker renames whole directories in), so size, mtime and
        // inode identify the bytes.
        etag = "\"\(String(size, radix: 16))-\(String(microseconds, radix: 16))-\(String(inode, radix: 16))\""
        lastModified = Date(timeIntervalSince1970: modified.timeIntervalSince1970.rounded(.down))
    }

    var contentType: String {
        switch (path as NSString).pathExtension.lowercased() {
        case "m3u8": "application/vnd.apple.mpegurl"
        case "mp4", "m4s": "video/mp4"
        case "webp": "image/webp"
        case "jpg", "jpeg": "image/jpeg"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }

    /// Segments and posters are immutable once published; playlists are cached briefly.
    var cacheControl: String {
        contentType == "application/vnd.apple.mpegurl" ? "public, max-age=10" : "public, max-age=31536000, immutable"
    }
}
