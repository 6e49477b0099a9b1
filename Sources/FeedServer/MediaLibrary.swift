internal import Foundation

/// Maps `/media/...` request paths onto files of the library, and refuses everything else.
///
/// Only `videos/` and `images/` are public (originals, rejected uploads and staging never are). Every component is
/// percent-decoded once and must be a plain name: no `..`, no dotfiles, no separators or NULs hidden in an escape.
/// The result is resolved with `realpath`, so a symlink that leads out of the library is refused too.
public struct MediaLibrary: Sendable {
    public static let publicRoots: Set<String> = ["videos", "images"]
    public let root: String

    /// `root` must exist; it is canonicalised once here.
    public init(root: String) throws {
        guard let resolved = Self.realPath(root) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: root])
        }
        self.root = resolved
    }

    /// The URL the API gives for a library-relative path.
    static func url(forLibraryPath path: String) -> String {
        "/media/" + path.split(separator: "/").map { component in
            String(component).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? ""
        }.joined(separator: "/")
    }

    /// The canonical file for the raw (still percent-encoded) path after `/media/`, or nil when it is not a
    /// public regular file inside the library.
    public func resolve(rawPath: Substring) -> String? {
        var components: [String] = []
        for raw in rawPath.split(separator: "/", omittingEmptySubsequences: false) {
            guard let name = String(raw).removingPercentEncoding, Self.isPlainName(name) else { return nil }
            components.append(name)
        }
        guard components.count >= 2, Self.publicRoots.contains(components[0]) else { return nil }
        guard let resolved = Self.realPath(root + "/" + components.joined(separator: "/")),
              resolved.hasPrefix(root + "/") else { return nil }
        let relative = resolved.dropFirst(root.count + 1)
        guard let top = relative.split(separator: "/").first, Self.publicRoots.contains(String(top)) else { return nil }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return resolved
    }

    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\0") && !name.contains("\\")
            && name.utf8.count <= 255
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
