internal import FileSystem
package import MediaModel

/// An upload opened the safe way (`ReadOnlyFile`: no symlinks, no FIFOs or devices, regular files only), with
/// file-system errors turned into the rejection a user reads.
///
/// libav reads it through `/proc/self/fd/N`, so it sees exactly the inode checked here even if the name is swapped.
package final class UploadFile: Sendable {
    package let path: String
    package let size: Int64
    private let file: ReadOnlyFile

    /// - Throws: `Rejection` with `not_regular_file`, `empty_file` or `unreadable`.
    package init(path: String) throws(Rejection) {
        self.path = path
        do {
            file = try ReadOnlyFile(path: path)
        } catch {
            switch error {
            case let .notRegularFile(_, kind):
                throw Rejection(.notRegularFile, "not a regular file (\(Self.describe(kind)))", path: path)
            case let .failed(failure):
                throw Rejection(.unreadable, "cannot open the file: \(failure)", path: path)
            }
        }
        size = file.size
        guard size > 0 else { throw Rejection(.emptyFile, "the file is empty (0 bytes)", path: path) }
    }

    /// The name libav opens: the already-checked descriptor, never the upload's own name.
    var libavPath: String { file.descriptorPath }

    /// Reads up to `count` bytes from `offset`.
    package func read(count: Int, at offset: Int64 = 0) throws(Rejection) -> [UInt8] {
        do { return try file.read(count: count, at: offset) } catch {
            throw Rejection(.unreadable, "read failed: \(error)", path: path)
        }
    }

    static func describe(_ kind: DirectoryEntry.Kind) -> String {
        switch kind {
        case .symlink: "symbolic link"
        case .directory: "directory"
        case .fifo: "FIFO"
        case .socket: "socket"
        case .characterDevice: "character device"
        case .blockDevice: "block device"
        case .regular, .unknown: "special file"
        }
    }
}
