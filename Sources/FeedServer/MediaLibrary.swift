internal import FileSystem
internal import Foundation
internal import NIOPosix

/// Maps `/media/...` request paths onto files of the library, and refuses everything else.
///
/// Only `videos/` and `images/` are public (originals, rejected uploads and staging never are). Every component is
/// percent-decoded once and must be a plain name: no `..`, no dotfiles, no separators or NULs hidden in an escape.
/// The result is resolved with `realpath`, so a symlink that leads out of the library is refused too.
public struct MediaLibrary: Sendable {
    public static let publicRoots: Set<String> = ["videos", "images"]
    public let root: String
    private let canonicalRoot: CanonicalPath

    /// `root` must exist; it is canonicalised once here.
    /// - Throws: `FileSystemError` from `realpath` when `root` cannot be resolved.
    public init(root: String) throws {
        canonicalRoot = try CanonicalPath(resolving: root)
        self.root = canonicalRoot.path
    }

    /// The public file behind the raw (still percent-encoded) path after `/media/`, or nil when there is none.
    /// `realpath` and `lstat` block on the disk, so they run on `threadPool`, as Hummingbird's `FileMiddleware` does:
    /// a request handler must not hold a thread of Swift's small concurrency pool while the disk answers.
    /// - Throws: `NIOThreadPoolError.ThreadPoolInactive` when the pool has shut down.
    func file(atRawPath rawPath: Substring, threadPool: NIOThreadPool = .singleton) async throws -> MediaFile? {
        // The name checks touch no disk: a hostile path is refused without a trip to the pool.
        guard let relative = Self.publicRelativePath(rawPath) else { return nil }
        return try await threadPool.runIfActive { [self] in
            resolve(relativePath: relative).flatMap(MediaFile.init(path:))
        }
    }

    /// The canonical path for the raw (still percent-encoded) path after `/media/`, or nil when it does not lead
    /// inside the library's public folders. Whether it is a regular file is `MediaFile`'s check.
    /// Blocks on `realpath`: async code calls `file(atRawPath:)` instead.
    public func resolve(rawPath: Substring) -> String? {
        Self.publicRelativePath(rawPath).flatMap(resolve(relativePath:))
    }

    /// `relativePath` (already checked by `publicRelativePath`) resolved, and kept only if it still lands in a
    /// public folder once symlinks are followed.
    private func resolve(relativePath: String) -> String? {
        guard let resolved = try? CanonicalPath(resolving: root + "/" + relativePath),
            let inside = resolved.relativePath(under: canonicalRoot),
            let top = inside.split(separator: "/").first, Self.publicRoots.contains(String(top))
        else { return nil }
        return resolved.path
    }

    /// The percent-decoded path below the root if every component is a plain name and the first one is a public
    /// folder; nil otherwise. Pure: no file-system call.
    /// Split and checked as bytes: split by `Character`, a '/' followed by a combining mark (U+0301) is one Character
    /// with it, so `videos//\u{301}x` kept an empty component and a slash inside a name (the media-path fuzz target).
    package static func publicRelativePath(_ rawPath: Substring) -> String? {
        var components: [String] = []
        for raw in rawPath.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let name = String(decoding: raw, as: UTF8.self).removingPercentEncoding, isPlainName(name) else {
                return nil
            }
            components.append(name)
        }
        guard components.count >= 2, publicRoots.contains(components[0]) else { return nil }
        return components.joined(separator: "/")
    }

    static func isPlainName(_ name: String) -> Bool {
        let bytes = name.utf8
        return !bytes.isEmpty && bytes.first != UInt8(ascii: ".") && bytes.count <= 255
            && !bytes.contains { $0 == UInt8(ascii: "/") || $0 == 0 || $0 == UInt8(ascii: "\\") }
    }
}
