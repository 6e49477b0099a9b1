internal import CFileSystem

#if canImport(Glibc)
internal import Glibc
#endif

/// The one way Reel puts a file where others read it: written under a temporary name in the same directory, fsynced,
/// renamed over the final name, and the directory fsynced. A reader sees the old file or the whole new one, and a
/// failure leaves nothing behind.
package enum AtomicFile {
    /// Writes `bytes` to `path`. With `durable` false the two fsyncs are skipped: still atomic, not crash-proof
    /// (progress files, files inside a staging directory that is synced as a whole before it is published). With
    /// `replacing` false an existing `path` is left as it is and the write fails with EEXIST.
    package static func write(
        _ bytes: some Collection<UInt8>, to path: String, durable: Bool = true, replacing: Bool = true
    ) throws(FileSystemError) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw FileSystemError("open", temporary) }
        var failure: FileSystemError?
        do throws(FileSystemError) {
            try writeAll(bytes, to: descriptor, path: temporary)
            if durable, fsync(descriptor) != 0 { throw FileSystemError("fsync", temporary) }
        } catch {
            failure = error
        }
        // close reports delayed write errors (NFS, quotas): a failure there is a failed write too.
        if close(descriptor) != 0, failure == nil { failure = FileSystemError("close", temporary) }
        if let failure {
            _ = unlink(temporary)
            throw failure
        }
        try place(temporary, at: path, replacing: replacing)
        if durable { try Directory.sync(Directory.parent(of: path)) }
    }

    /// Copies the regular file at `source` (never through a symlink) to `path` the same way: a temporary name,
    /// fsync, rename (refusing an existing `path` unless `replacing`), fsync of the directory.
    package static func copy(file source: String, to path: String, replacing: Bool = true) throws(FileSystemError) {
        let input: ReadOnlyFile
        do { input = try ReadOnlyFile(path: source) } catch {
            switch error {
            case .failed(let failure): throw failure
            default: throw FileSystemError("open", source, code: EINVAL)
            }
        }
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw FileSystemError("open", temporary) }
        var failure: FileSystemError?
        do throws(FileSystemError) {
            var writeFailure: FileSystemError?
            try input.forEachBlock { block in
                guard writeFailure == nil else { return }
                do throws(FileSystemError) { try writeAll(block, to: descriptor, path: temporary) } catch {
                    writeFailure = error
                }
            }
            if let writeFailure { throw writeFailure }
            if fsync(descriptor) != 0 { throw FileSystemError("fsync", temporary) }
        } catch {
            failure = error
        }
        if close(descriptor) != 0, failure == nil { failure = FileSystemError("close", temporary) }
        if let failure {
            _ = unlink(temporary)
            throw failure
        }
        try place(temporary, at: path, replacing: replacing)
        try Directory.sync(Directory.parent(of: path))
    }

    /// Renames the finished `temporary` onto `path`; removes it when that fails.
    private static func place(_ temporary: String, at path: String, replacing: Bool) throws(FileSystemError) {
        let moved =
            replacing ? rename(temporary, path) : CFileSystem_renameNoReplace(AT_FDCWD, temporary, AT_FDCWD, path)
        guard moved == 0 else {
            let failure = FileSystemError(replacing ? "rename" : "renameat2", temporary + " -> " + path)
            _ = unlink(temporary)
            throw failure
        }
    }

    static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32, path: String) throws(FileSystemError) {
        // nil: not contiguous; .some(nil): written; .some(error): failed.
        let outcome: FileSystemError?? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(FileSystemError) {
                try writeAll(UnsafeRawBufferPointer(buffer), to: descriptor, path: path)
                return nil
            } catch {
                return error
            }
        }
        switch outcome {
        case .some(nil): return
        case let .some(.some(error)): throw error
        case nil:
            var failure: FileSystemError?
            Array(bytes).withUnsafeBytes { raw in
                do throws(FileSystemError) { try writeAll(raw, to: descriptor, path: path) } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }

    static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws(FileSystemError) {
        var done = 0
        while done < buffer.count {
            let count = Glibc.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError("write", path)
            }
            done += count
        }
    }
}
