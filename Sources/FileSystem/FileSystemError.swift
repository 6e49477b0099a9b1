internal import Foundation

#if canImport(Glibc)
internal import Glibc
#endif

/// A failed system call: which call, on what, and errno's text.
package struct FileSystemError: Error, CustomStringConvertible, Sendable, Equatable {
    package let call: String
    package let path: String
    package let code: Int32
    /// What the call said when its failures are not errno values (getaddrinfo's `gai_strerror`).
    package let text: String?

    package init(_ call: String, _ path: String, code: Int32, text: String? = nil) {
        self.call = call
        self.path = path
        self.code = code
        self.text = text
    }

    /// With the errno the failed call just left.
    package init(_ call: String, _ path: String) {
        self.init(call, path, code: errno)
    }

    package var isNotFound: Bool { code == ENOENT }
    /// A create-only write or rename found the name taken (a directory in the way is not empty).
    package var isAlreadyExists: Bool { code == EEXIST || code == ENOTEMPTY }
    /// A component of the path that should be a directory is a file.
    package var isNotDirectory: Bool { code == ENOTDIR }
    /// No space or quota left: the worker pauses until space returns instead of failing jobs.
    package var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }
    /// Disk full, quota, I/O errors, a read-only remount: worth another attempt later.
    package var isTransient: Bool {
        [ENOSPC, EDQUOT, EIO, EROFS, EAGAIN, EINTR, ENOMEM, EMFILE, ENFILE].contains(code)
    }
    package var description: String { "\(call) failed on \(path): \(text ?? String(cString: strerror(code)))" }
}
