internal import CSandbox

#if canImport(Glibc)
internal import Glibc
#endif

/// The calling process's privileges: giving them up for good, and the facts a sandbox needs first.
package enum ProcessPrivileges {
    /// PR_SET_NO_NEW_PRIVS: no execve from here on can grant a privilege (set-user-ID bits, file capabilities),
    /// and Landlock and seccomp may be used without CAP_SYS_ADMIN.
    /// - Throws: `SandboxError` from `prctl(PR_SET_NO_NEW_PRIVS)`.
    package static func forbidNewPrivileges() throws(SandboxError) {
        try check(CSandbox_setNoNewPrivileges(), "prctl(PR_SET_NO_NEW_PRIVS)")
    }

    /// Whether no_new_privs is set (for the probe and the report).
    package static var newPrivilegesForbidden: Bool { CSandbox_noNewPrivileges() == 1 }

    /// Gives up every capability: the bounding set where this process may shrink it (CAP_SETPCAP, as root), then
    /// the effective, permitted, inheritable and ambient sets. A job started as root can then no longer raise its
    /// own resource limits, override file permissions or signal other users' processes.
    /// - Throws: `SandboxError` from `capset`, or from `prctl(PR_CAPBSET_DROP)` failing other than as refused.
    package static func dropCapabilities() throws(SandboxError) {
        for capability in Int32(0)..<64 {
            guard CSandbox_dropBoundingCapability(capability) == 0 else {
                // EINVAL: past the kernel's last capability; EPERM: not ours to drop (no CAP_SETPCAP).
                if errno == EINVAL || errno == EPERM { break }
                throw SandboxError(.failed, call: "prctl(PR_CAPBSET_DROP, \(capability))", code: errno)
            }
        }
        try check(CSandbox_clearCapabilities(), "capset")
    }

    /// The threads of this process: Landlock, unshare and a seccomp filter apply to the calling thread (and what it
    /// starts later), so a sandbox must be set up while this is 1.
    /// - Throws: `SandboxError` from reading /proc/self/status.
    package static func threadCount() throws(SandboxError) -> Int {
        let status = String(decoding: try ProcFile.contents(of: "/proc/self/status"), as: UTF8.self)
        for line in status.split(separator: "\n") where line.hasPrefix("Threads:") {
            if let count = Int(line.dropFirst(8).drop { $0 == " " || $0 == "\t" }) { return count }
        }
        throw SandboxError(.failed, call: "read (no Threads: line)", path: "/proc/self/status", code: EINVAL)
    }
}
