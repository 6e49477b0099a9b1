#if canImport(Glibc)
internal import Glibc
#endif

/// A protection that could not be put in place: which call failed, on what, and why.
package struct SandboxError: Error, CustomStringConvertible, Sendable, Equatable {
    package enum Reason: String, Sendable, Equatable {
        /// The kernel lacks it (ENOSYS, EOPNOTSUPP) or refuses it to this process: the next protection stands in.
        case unavailable
        /// It exists and its set-up failed: the job must not run.
        case failed
        /// The process has more than one thread: Landlock and unshare would confine only the calling one.
        case threaded
    }

    package let reason: Reason
    /// The C call that failed (`landlock_add_rule`, `seccomp_load`, `mount`...).
    package let call: String
    /// What it was applied to, when it names a path.
    package let path: String?
    package let code: Int32

    package init(_ reason: Reason, call: String, path: String? = nil, code: Int32) {
        self.reason = reason
        self.call = call
        self.path = path
        self.code = code
    }

    package var description: String {
        let target = path.map { " on \($0)" } ?? ""
        return "\(call) failed\(target): \(String(cString: strerror(code)))"
    }
}

/// The one door every system call of this module goes through: -1 (or, for libseccomp, a negative errno) becomes a
/// `SandboxError` naming the call. Codes in `unavailable` mean the kernel lacks the feature, not that it broke.
@discardableResult
func check(
    _ result: Int32, _ call: String, path: String? = nil, unavailable: Set<Int32> = []
) throws(SandboxError) -> Int32 {
    guard result < 0 else { return result }
    let code = result == -1 ? errno : -result
    throw SandboxError(unavailable.contains(code) ? .unavailable : .failed, call: call, path: path, code: code)
}
