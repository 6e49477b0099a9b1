/// One entry of a directory, read without following symlinks. `name` is the raw bytes the kernel returned: a
/// name is data, and need not be UTF-8.
package struct DirectoryEntry: Sendable, Equatable {
    package enum Kind: String, Sendable, CustomStringConvertible {
        case regular, directory, symlink, fifo, socket, blockDevice = "block_device", characterDevice =
            "character_device", unknown

        /// Words for messages: "character device", not "character_device".
        package var description: String { String(rawValue.map { $0 == "_" ? " " : $0 }) }
    }

    package let name: [UInt8]
    package let kind: Kind
    package let size: Int64
    /// Modification time in nanoseconds since the epoch.
    package let modified: Int64
    /// Status-change time (ctime) in nanoseconds since the epoch: a write moves it with `modified`, a rename or a
    /// change of mode alone moves only this.
    package let changed: Int64

    package init(name: [UInt8], kind: Kind, size: Int64, modified: Int64, changed: Int64? = nil) {
        self.name = name
        self.kind = kind
        self.size = size
        self.modified = modified
        self.changed = changed ?? modified
    }

    /// `NAME.json`: what the upload `NAME` beside it says about its post (caption, title, creator). Never an upload
    /// itself.
    package var isSidecar: Bool {
        let suffix = Array(".json".utf8)
        return name.count > suffix.count && name.suffix(suffix.count).map({ $0 | 0x20 }) == suffix
    }

    /// The name of this upload's sidecar.
    package var sidecarName: [UInt8] { name + Array(".json".utf8) }

    /// Dotfiles and the partial-download suffixes browsers and copy tools use while a file is still arriving.
    package var isIgnored: Bool {
        if name.first == UInt8(ascii: ".") { return true }
        for suffix in [".part", ".tmp", ".crdownload"] where name.count >= suffix.utf8.count {
            if name.suffix(suffix.utf8.count).map({ $0 | 0x20 }) == Array(suffix.utf8) { return true }
        }
        return false
    }
}
