/// One entry of a directory, read without following symlinks. `name` is the raw bytes the kernel returned: a
/// name is data, and need not be UTF-8.
public struct DirectoryEntry: Sendable, Equatable {
    public enum Kind: String, Sendable, CustomStringConvertible {
        case regular, directory, symlink, fifo, socket, blockDevice = "block_device", characterDevice =
            "character_device", unknown

        /// Words for messages: "character device", not "character_device".
        public var description: String { String(rawValue.map { $0 == "_" ? " " : $0 }) }
    }

    public let name: [UInt8]
    public let kind: Kind
    public let size: Int64
    /// Modification time in nanoseconds since the epoch.
    public let modified: Int64

    public init(name: [UInt8], kind: Kind, size: Int64, modified: Int64) {
        self.name = name
        self.kind = kind
        self.size = size
        self.modified = modified
    }

    /// Dotfiles and the partial-download suffixes browsers and copy tools use while a file is still arriving.
    public var isIgnored: Bool {
        if name.first == UInt8(ascii: ".") { return true }
        for suffix in [".part", ".tmp", ".crdownload"] where name.count >= suffix.utf8.count {
            if name.suffix(suffix.utf8.count).map({ $0 | 0x20 }) == Array(suffix.utf8) { return true }
        }
        return false
    }
}
