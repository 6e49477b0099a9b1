internal import Foundation
#if canImport(Glibc)
internal import Glibc
#endif

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

    /// Each byte outside RFC 3986's unreserved set (and `/`) percent-encoded, by hand: a CharacterSet per call
    /// costs more than the rest of a feed page.
    static func appendPercentEncoded(_ path: String, to bytes: inout [UInt8]) {
        let hex: StaticString = "0123456789ABCDEF"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                bytes.append(byte)
            default:
                hex.withUTF8Buffer { hex in
                    bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                }
            }
        }
    }

    /// The canonical path for the raw (still percent-encoded) path after `/media/`, or nil when it does not lead
    /// inside the library's public folders. Whether it is a regular file is `MediaFile`'s check.
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
