internal import Foundation
#if canImport(Glibc)
internal import Glibc
#endif

/// A failed system call: which call, on what, and errno's text.
public struct FileSystemError: Error, CustomStringConvertible, Sendable, Equatable {
    public let call: String
    public let path: String
    public let code: Int32

    public init(_ call: String, _ path: String, code: Int32) {
        self.call = call
        self.path = path
        self.code = code
    }

    /// With the errno the failed call just left.
    init(_ call: String, _ path: String) {
        self.init(call, path, code: errno)
    }

    public var isNotFound: Bool { code == ENOENT }
    public var alreadyExists: Bool { code == EEXIST || code == ENOTEMPTY }
    /// Disk full, quota, I/O errors: worth another attempt later.
    public var isTransient: Bool { [ENOSPC, EDQUOT, EIO, EAGAIN, EINTR, ENOMEM, EMFILE, ENFILE].contains(code) }
    public var description: String { "\(call) failed on \(path): \(String(cString: strerror(code)))" }
}
