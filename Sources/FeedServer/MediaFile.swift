internal import FileSystem
internal import Foundation
internal import MediaModel

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

    /// The file at `path`, or nil unless it is a regular file. `path` is canonical, so `lstat` sees the file itself;
    /// a symlink swapped in since it was resolved is refused rather than followed.
    /// Blocks on `lstat`: async code gets a `MediaFile` from `MediaLibrary.file(atRawPath:)`.
    init?(path: String) {
        guard let status = try? FileStatus(path: path, followingSymlinks: false), status.kind == .regular else {
            return nil
        }
        self.init(path: path, status: status)
    }

    init(path: String, status: FileStatus) {
        self.path = path
        size = Int(status.size)
        // Published files never change in place (the worker renames whole directories in), so size, mtime and
        // inode identify the bytes. The mtime is in microseconds, rounded to the nearest.
        let (microseconds, nanoseconds) = Self.floorDivide(status.modified, by: 1_000)
        let rounded = nanoseconds >= 500 ? microseconds + 1 : microseconds
        etag = "\"\(String(size, radix: 16))-\(String(rounded, radix: 16))-\(String(status.inode, radix: 16))\""
        lastModified = HTTPDate.format(Int(Self.floorDivide(status.modified, by: 1_000_000_000).quotient))
    }

    /// Division rounding towards minus infinity (the remainder is never negative), so a time before 1970 still falls
    /// in the right second.
    private static func floorDivide(_ value: Int64, by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    var contentType: String { MediaPolicy.contentType(forName: path[...]) }

    var isPlaylist: Bool { contentType == MediaPolicy.playlistType }

    /// Segments, posters and storyboards are immutable once published; playlists are cached briefly.
    var cacheControl: String { MediaPolicy.cacheControl(forContentType: contentType) }
}
