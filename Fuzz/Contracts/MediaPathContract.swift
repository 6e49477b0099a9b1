internal import FeedServer

/// The path after `/media/` in any request: a path the name checks let through has, split on the byte '/', a public
/// folder first and only plain names after it (none empty, none starting with '.', no NUL or backslash), so no
/// spelling of `..` or of a hidden file reaches the file system, whatever Unicode or percent escapes it uses.
enum MediaPathContract {
    static let target = FuzzTarget(
        name: "media-path", contract: "an accepted path is a public folder then plain names, split on the byte '/'"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        let raw = String(decoding: bytes, as: UTF8.self)
        guard let relative = MediaLibrary.publicRelativePath(Substring(raw)) else { return }
        let names = relative.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        try expect(
            names.count >= 2 && MediaLibrary.publicRoots.contains(String(decoding: names[0], as: UTF8.self))
                && names.allSatisfy { name in
                    !name.isEmpty && name.first != UInt8(ascii: ".") && !name.contains(0) && !name.contains(0x5C)
                        && name.count <= 255
                },
            "\(raw.debugDescription) was let through as \(relative.debugDescription)")
    }
}
