internal import CSandbox

#if canImport(Glibc)
internal import Glibc
#endif

/// One Landlock ruleset: a descriptor that collects rules, then confines this process (`restrictSelf`). Closed in
/// `deinit`. It handles every right the running kernel's ABI knows, so anything no rule allows is denied: files, TCP
/// (ABI 4), abstract UNIX sockets and signals out of the domain (ABI 6).
package final class LandlockRuleset {
    package let abi: Int
    private let descriptor: Int32

    /// The running kernel's Landlock ABI version.
    /// - Throws: `SandboxError` (`.unavailable`) when the kernel was built without Landlock or boots with it off.
    package static func kernelABI() throws(SandboxError) -> Int {
        Int(try check(CSandbox_landlockABI(), "landlock_create_ruleset", unavailable: [ENOSYS, EOPNOTSUPP]))
    }

    /// - Throws: `SandboxError` from `landlock_create_ruleset`.
    package init(abi: Int) throws(SandboxError) {
        self.abi = abi
        descriptor = try check(
            CSandbox_landlockCreateRuleset(
                LandlockAccess.handled(byABI: abi).rawValue, abi >= 4 ? LandlockLimits.tcpBindAndConnect : 0,
                abi >= 6 ? LandlockLimits.abstractSocketsAndSignals : 0, Int32(abi)),
            "landlock_create_ruleset")
    }

    deinit { close(descriptor) }

    /// Allows `access` on `path` and, for a directory, everything beneath it. On a file only file rights apply.
    /// - Throws: `SandboxError` from `open` (ENOENT for a missing path) or `landlock_add_rule`.
    package func allow(_ access: LandlockAccess, beneath path: String) throws(SandboxError) {
        let parent = try check(CSandbox_openPath(path), "open", path: path)
        defer { close(parent) }
        var status = stat()
        try check(fstat(parent, &status), "fstat", path: path)
        var rights = access.intersection(.handled(byABI: abi))
        if status.st_mode & S_IFMT != S_IFDIR { rights.formIntersection(.fileRights) }
        try check(CSandbox_landlockAllowBeneath(descriptor, parent, rights.rawValue), "landlock_add_rule", path: path)
    }

    /// Confines the calling thread and everything it starts from now on (a thread that already runs stays free:
    /// call this single-threaded). Needs no_new_privs (or CAP_SYS_ADMIN).
    /// - Throws: `SandboxError` from `landlock_restrict_self`.
    package func restrictSelf() throws(SandboxError) {
        try check(CSandbox_landlockRestrictSelf(descriptor), "landlock_restrict_self")
    }
}
