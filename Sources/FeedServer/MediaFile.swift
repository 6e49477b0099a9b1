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

/// A parsed `Range: bytes=...` header (one range; several are answered with the whole file, as RFC 9110 allows).
enum ByteRangeRequest: Equatable {
    case whole
    case partial(ClosedRange<Int>)
    case unsatisfiable

    init(header: String?, size: Int) {
        guard let header else { self = .whole; return }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else { self = .whole; return }
        let spec = trimmed.dropFirst("bytes=".count)
        guard !spec.contains(",") else { self = .whole; return }
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { self = .unsatisfiable; return }
        let first = parts[0].trimmingCharacters(in: .whitespaces), last = parts[1].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            // Suffix range: the last N bytes.
            guard let count = Int(last), count > 0, size > 0 else { self = .unsatisfiable; return }
            self = .partial(max(0, size - count)...(size - 1))
            return
        }
        guard let start = Int(first), start >= 0, start < size else { self = .unsatisfiable; return }
        if last.isEmpty {
            self = .partial(start...(size - 1))
            return
        }
        guard let end = Int(last), end >= start else { self = .unsatisfiable; return }
        self = .partial(start...min(end, size - 1))
    }
}
