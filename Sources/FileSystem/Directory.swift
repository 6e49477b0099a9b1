internal import CFileSystem
internal import Foundation

#if canImport(Glibc)
internal import Glibc
#endif

/// Directory listing and moves by raw name, so names that are not UTF-8 (or hold newlines, `%d`, `$(...)`) are
/// handled as the bytes they are.
package enum Directory {
    /// Every entry except `.` and `..`, with lstat facts (symlinks are reported, never followed).
    package static func entries(of path: String) throws(FileSystemError) -> [DirectoryEntry] {
        guard let directory = opendir(path) else { throw FileSystemError("opendir", path) }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var result: [DirectoryEntry] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw FileSystemError("readdir", path) }
                break
            }
            // Only the name's own bytes: a record is as long as its name, not as d_name's 256 (CFileSystem.h).
            guard let cName = CFileSystem_direntName(entry) else { continue }  // never nil: a field's address
            let name = [UInt8](UnsafeRawBufferPointer(start: cName, count: strlen(cName)))
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            var info = stat()
            let status = name.withUnsafeBufferPointer { bytes in
                (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                    fstatat(descriptor, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW)
                }
            }
            if status != 0 {
                if errno == ENOENT { continue }  // gone between readdir and stat
                throw FileSystemError("fstatat", path + "/" + String(decoding: name, as: UTF8.self))
            }
            let kind = DirectoryEntry.Kind(mode: info.st_mode)
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
            result.append(
                DirectoryEntry(
                    name: name, kind: kind, size: Int64(info.st_size), modified: modified, changed: changed))
        }
        return result
    }

    /// Moves the entry `name` of `directory` to `destination`, atomically and without following a symlink
    /// (the link itself moves). Fails with ENOENT when another process moved it first: that is how two workers
    /// on one inbox decide who takes a file.
    package static func move(entry name: [UInt8], in directory: String, to destination: String) throws(FileSystemError)
    {
        let cName = name.map { CChar(bitPattern: $0) } + [0]
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError("open", directory) }
        defer { close(descriptor) }
        // RENAME_NOREPLACE: never overwrite an existing output.
        let moved = cName.withUnsafeBufferPointer {
            CFileSystem_renameNoReplace(descriptor, $0.baseAddress!, AT_FDCWD, destination)
        }
        if moved != 0 { throw FileSystemError("renameat2", destination) }
    }

    /// `rename` that refuses to replace an existing destination.
    package static func move(_ source: String, to destination: String) throws(FileSystemError) {
        if CFileSystem_renameNoReplace(AT_FDCWD, source, AT_FDCWD, destination) != 0 {
            throw FileSystemError("renameat2", source + " -> " + destination)
        }
    }

    /// Flushes a directory's entries (after a rename into it) to disk.
    package static func sync(_ path: String) throws(FileSystemError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError("open", path) }
        defer { close(descriptor) }
        if fsync(descriptor) != 0 { throw FileSystemError("fsync", path) }
    }

    /// fsyncs every file and directory under `path` (inclusive): a published output survives power loss.
    package static func syncTree(_ path: String) throws(FileSystemError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw FileSystemError("lstat", path) }
        if info.st_mode & S_IFMT == S_IFDIR {
            for entry in try entries(of: path) where entry.kind == .regular || entry.kind == .directory {
                try syncTree(path + "/" + String(decoding: entry.name, as: UTF8.self))
            }
            try sync(path)
        } else if info.st_mode & S_IFMT == S_IFREG {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard descriptor >= 0 else { throw FileSystemError("open", path) }
            defer { close(descriptor) }
            if fsync(descriptor) != 0 { throw FileSystemError("fsync", path) }
        }
    }

    /// Removes `path` and everything under it; absent is fine.
    package static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Removes the file (or symlink) `path`, never a directory; absent is fine.
    package static func removeFile(_ path: String) throws(FileSystemError) {
        if unlink(path) != 0, errno != ENOENT { throw FileSystemError("unlink", path) }
    }

    /// Removes the entry `name` (raw bytes) of `directory`, never a directory; absent is fine.
    package static func removeEntry(_ name: [UInt8], in directory: String) throws(FileSystemError) {
        let cName = name.map { CChar(bitPattern: $0) } + [0]
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError("open", directory) }
        defer { close(descriptor) }
        let removed = cName.withUnsafeBufferPointer { unlinkat(descriptor, $0.baseAddress!, 0) }
        if removed != 0, errno != ENOENT {
            throw FileSystemError("unlinkat", directory + "/" + String(decoding: name, as: UTF8.self))
        }
    }

    /// Removes the directory `path` if it is empty. Returns whether it is gone (absent counts).
    @discardableResult
    package static func removeIfEmpty(_ path: String) -> Bool {
        rmdir(path) == 0 || errno == ENOENT
    }

    /// The directory part of `path` ("." for a bare name).
    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// True for a directory, or a symlink to one.
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Creates `path` and any missing parents; an existing directory is fine. Each directory made here has its
    /// entry fsynced in its parent, so files later made durable inside it are not lost with it in a power loss.
    package static func create(_ path: String) throws(FileSystemError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            let parent = prefix.isEmpty ? "/" : prefix
            prefix += "/" + component
            if mkdir(prefix, 0o755) == 0 {
                try sync(parent)
            } else {
                let code = errno
                var info = stat()
                guard code == EEXIST, stat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                    throw FileSystemError("mkdir", prefix, code: code)
                }
            }
        }
    }
}
