internal import FileSystem
internal import MediaStore

extension S3MediaStore {
    /// The regular files of the staged tree `folder` of `root`, as paths relative to `root`, in name order. Hidden
    /// names and partial files are left out; a symlink or a name that is not UTF-8 stops the walk, named, since a
    /// publish must not leave part of its output behind. Blocks on the disk: callers run it on a thread pool.
    /// - Throws: `FileSystemError`; `MediaStoreError.notAnObject` for an entry no object can stand for.
    static func stagedFiles(root: String, folder: String) throws -> [(path: String, size: Int64)] {
        var found: [(path: String, size: Int64)] = []
        func walk(_ relative: String) throws {
            let entries = try Directory.entries(of: root + "/" + relative).sorted {
                $0.name.lexicographicallyPrecedes($1.name)
            }
            for entry in entries where !entry.isIgnored {
                guard let name = String(validating: entry.name, as: UTF8.self) else {
                    throw MediaStoreError.notAnObject(
                        key: relative + "/" + String(decoding: entry.name, as: UTF8.self), entry: .nameNotUTF8)
                }
                switch entry.kind {
                case .regular: found.append((relative + "/" + name, entry.size))
                case .directory: try walk(relative + "/" + name)
                case .symlink: throw MediaStoreError.notAnObject(key: relative + "/" + name, entry: .symlink)
                default:
                    throw MediaStoreError.notAnObject(
                        key: relative + "/" + name, entry: .special(entry.kind.description))
                }
            }
        }
        if Directory.isDirectory(root + "/" + folder) { try walk(folder) }
        return found
    }
}
