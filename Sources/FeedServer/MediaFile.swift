internal import Foundation

/// What the media route needs to know about one file: its type, caching policy and validator.
struct MediaFile: Sendable {
    let path: String
    let size: Int
    let etag: String
    let lastModified: Date

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.path = path
        size = Int(info.st_size)
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        // Published files never change in place (the worker renames whole directories in), so size, mtime and
        // inode identify the bytes.
        etag = "\"\(String(size, radix: 16))-\(String(nanoseconds, radix: 16))-\(String(info.st_ino, radix: 16))\""
        lastModified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
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
