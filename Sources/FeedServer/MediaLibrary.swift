internal import Foundation

/// Which `/media/...` request paths name a public object of the library, and which are refused before any store is
/// asked.
///
/// Only `videos/` and `images/` are public (originals, rejected uploads and staging never are). Every component is
/// percent-decoded once and must be a plain name: no `..`, no dotfiles, no separators or NULs hidden in an escape.
/// Where a symlink leads is the store's check (`DirectoryMediaStore` with `publicRoots` as its linkable folders).
package enum MediaLibrary {
    package static let publicRoots: Set<String> = ["videos", "images"]

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
