internal import Foundation
#if canImport(Glibc)
internal import Glibc
#endif

/// What the media route needs to know about one file: its type, caching policy and validator.
struct MediaFile: Sendable {
    let path: String
    let size: Int
    let etag: String
    /// IMF-fixdate, as HTTP wants.
    let lastModified: String

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
        lastModified = Self.httpDate(secondsSince1970: Int(modified.timeIntervalSince1970.rounded(.down)))
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

    /// By hand, as the feed's timestamps are: a DateFormatter per request costs more than serving a small segment.
    static func httpDate(secondsSince1970: Int) -> String {
        var seconds = time_t(secondsSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// Segments and posters are immutable once published; playlists are cached briefly.
    var cacheControl: String {
        contentType == "application/vnd.apple.mpegurl" ? "public, max-age=10" : "public, max-age=31536000, immutable"
    }
}
