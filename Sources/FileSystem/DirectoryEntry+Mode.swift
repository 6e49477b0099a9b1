#if canImport(Glibc)
internal import Glibc
#endif

extension DirectoryEntry.Kind {
    /// The kind encoded in the `S_IFMT` bits of a `st_mode`.
    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symlink
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFBLK: self = .blockDevice
        case S_IFCHR: self = .characterDevice
        default: self = .unknown
        }
    }
}
