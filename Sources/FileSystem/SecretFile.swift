#if canImport(Glibc)
internal import Glibc
#endif

/// A small secret in a file that only its owner may read, such as the key that signs viewer sessions. It is read as
/// it is, or created once (mode 0600) from what `make` returns. Several servers may start at once on a shared
/// directory. Each writes its own file under a temporary name and `link`s it to the final name, and `link` fails for
/// all but the first, so they all end up with that first file.
package enum SecretFile {
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Group or others have some access to the file: `mode` is its permission bits.
        case tooOpen(path: String, mode: UInt32)
        case notRegularFile(path: String)
        case tooLarge(path: String, limit: Int)
        case failed(FileSystemError)

        package var description: String {
            switch self {
            case let .tooOpen(path, mode):
                "\(path) has mode \(String(mode, radix: 8)): a secret must be the owner's alone (chmod 600 \(path))"
            case let .notRegularFile(path): "\(path) is not a regular file"
            case let .tooLarge(path, limit): "\(path) is larger than \(limit) bytes: not a key file"
            case let .failed(error): error.description
            }
        }
    }

    /// The file's bytes. When there is no file, `make()`'s bytes are written there first (`created` is then true).
    /// - Throws: `Failure` when the file cannot be read or made, or is open to others.
    package static func readOrCreate(
        _ path: String, limit: Int = 64 * 1024, make: () -> [UInt8]
    ) throws(Failure) -> (bytes: [UInt8], created: Bool) {
        do {
            return (try read(path, limit: limit), false)
        } catch .failed(let error) where error.isNotFound {
            return try create(path, bytes: make(), limit: limit)
        }
    }

    /// The bytes of an existing secret file; a symlink is followed (a mounted secret often is one).
    /// - Throws: `Failure` when it cannot be read, is not a regular file, or is open to others.
    package static func read(_ path: String, limit: Int = 64 * 1024) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .failed(FileSystemError("open", path)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .failed(FileSystemError("fstat", path)) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path: path) }
        guard status.st_mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: UInt32(status.st_mode & 0o7777)) }
        guard status.st_size <= limit else { throw .tooLarge(path: path, limit: limit) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + done, $0.count - done) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .failed(FileSystemError("read", path)) }
            if count == 0 { break }
            done += count
        }
        return Array(bytes.prefix(done))
    }

    private static func create(
        _ path: String, bytes: [UInt8], limit: Int
    ) throws(Failure) -> (bytes: [UInt8], created: Bool) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .failed(FileSystemError("open", temporary)) }
        var failure: FileSystemError?
        do throws(FileSystemError) {
            try AtomicFile.writeAll(bytes, to: descriptor, path: temporary)
            if fsync(descriptor) != 0 { throw FileSystemError("fsync", temporary) }
        } catch {
            failure = error
        }
        if close(descriptor) != 0, failure == nil { failure = FileSystemError("close", temporary) }
        defer { _ = unlink(temporary) }
        if let failure { throw .failed(failure) }
        guard link(temporary, path) == 0 else {
            guard errno == EEXIST else { throw .failed(FileSystemError("link", temporary + " -> " + path)) }
            return (try read(path, limit: limit), false)  // another server made it first
        }
        do { try Directory.sync(Directory.parent(of: path)) } catch { throw .failed(error) }
        return (bytes, true)
    }
}
