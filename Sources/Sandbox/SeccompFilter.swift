internal import CSandbox

#if canImport(Glibc)
internal import Glibc
#endif

/// One libseccomp filter context (`scmp_filter_ctx`), released in `deinit`: allow by default, deny what is added,
/// then `load` it into this process. A system call of another architecture (i386 or x32 numbers on x86_64) kills
/// the process: a deny list is only a list for the architecture it was written for.
package final class SeccompFilter {
    private let context: scmp_filter_ctx

    /// - Throws: `SandboxError` from `seccomp_init` or `seccomp_attr_set`.
    package init() throws(SandboxError) {
        guard let context = seccomp_init(SCMP_ACT_ALLOW) else {
            throw SandboxError(.failed, call: "seccomp_init", code: ENOMEM)
        }
        self.context = context
        try check(
            seccomp_attr_set(context, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS),
            "seccomp_attr_set(SCMP_FLTATR_ACT_BADARCH)")
    }

    deinit { seccomp_release(context) }

    /// Whether this kernel filters system calls at all (CONFIG_SECCOMP_FILTER).
    package static var isSupported: Bool { CSandbox_seccompMode() >= 0 }

    /// `name` fails with `code` instead of running.
    /// - Throws: `SandboxError` from `seccomp_syscall_resolve_name` (a name libseccomp does not know) or
    ///   `seccomp_rule_add_array`.
    package func deny(_ name: String, errno code: Int32) throws(SandboxError) {
        let number = try Self.number(of: name)
        try check(
            seccomp_rule_add_array(context, CSandbox_actionErrno(code), number, 0, nil),
            "seccomp_rule_add_array(\(name))")
    }

    /// `name` fails with `code` when its argument `index` has any bit of `flags` set (one rule per bit: rules on one
    /// call are alternatives).
    /// - Throws: `SandboxError` as `deny(_:errno:)`.
    package func deny(
        _ name: String, errno code: Int32, whenArgument index: UInt32, hasAnyOf flags: [UInt64]
    )
        throws(SandboxError)
    {
        let number = try Self.number(of: name)
        for flag in flags {
            var comparison = scmp_arg_cmp(arg: index, op: SCMP_CMP_MASKED_EQ, datum_a: flag, datum_b: flag)
            try check(
                seccomp_rule_add_array(context, CSandbox_actionErrno(code), number, 1, &comparison),
                "seccomp_rule_add_array(\(name))")
        }
    }

    /// `name` fails with `code` unless its argument `index` is exactly `value` (all 64 bits: a caller that sets
    /// high bits the kernel would ignore is refused too).
    /// - Throws: `SandboxError` as `deny(_:errno:)`.
    package func deny(
        _ name: String, errno code: Int32, unlessArgument index: UInt32, is value: UInt64
    )
        throws(SandboxError)
    {
        let number = try Self.number(of: name)
        var comparison = scmp_arg_cmp(arg: index, op: SCMP_CMP_NE, datum_a: value, datum_b: 0)
        try check(
            seccomp_rule_add_array(context, CSandbox_actionErrno(code), number, 1, &comparison),
            "seccomp_rule_add_array(\(name))")
    }

    /// Loads the filter into the calling thread; threads and processes started later inherit it, and nothing can
    /// remove it.
    /// - Throws: `SandboxError` from `seccomp_load`.
    package func load() throws(SandboxError) {
        try check(seccomp_load(context), "seccomp_load")
    }

    private static func number(of name: String) throws(SandboxError) -> Int32 {
        let number = seccomp_syscall_resolve_name(name)
        guard number >= 0 else {
            throw SandboxError(.failed, call: "seccomp_syscall_resolve_name(\(name))", code: ENOSYS)
        }
        return number
    }
}
