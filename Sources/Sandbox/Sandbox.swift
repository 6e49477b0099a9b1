internal import CSandbox

#if canImport(Glibc)
internal import Glibc
#endif

/// Confines the calling process for good: what it may read and write (Landlock, or the namespace jail where the
/// kernel has no Landlock), which system calls it may make (seccomp), and no privilege to gain or keep
/// (no_new_privs, every capability dropped). Call it single-threaded, before the process touches untrusted input.
package enum Sandbox {
    /// Puts `policy` in place as `mode` asks and says what holds. A protection the kernel lacks is reported
    /// missing, with the next one standing in; one that exists and fails to set up throws.
    /// - Throws: `SandboxError`: `.threaded` when the process has another thread, `.failed` naming the call.
    package static func confine(_ policy: SandboxPolicy, mode: SandboxMode) throws(SandboxError) -> SandboxReport {
        var report = SandboxReport(mode: mode)
        guard mode != .off else {
            report.missing.append("sandbox turned off (--job-sandbox off)")
            return report
        }
        let started = monotonicSeconds()
        let threads = try ProcessPrivileges.threadCount()
        guard threads == 1 else {
            throw SandboxError(.threaded, call: "sandbox set-up (\(threads) threads)", code: EDEADLK)
        }
        try ProcessPrivileges.forbidNewPrivileges()
        report.noNewPrivileges = true
        if mode == .auto {
            do throws(SandboxError) {
                let abi = try LandlockRuleset.kernelABI()
                let ruleset = try LandlockRuleset(abi: abi)
                for rule in policy.rules {
                    do throws(SandboxError) {
                        try ruleset.allow(rights(for: rule.access), beneath: rule.path)
                    } catch  where !rule.isRequired && error.code == ENOENT {
                        continue
                    }
                }
                try ruleset.restrictSelf()
                report.landlockABI = abi
            } catch  where error.reason == .unavailable {
                report.missing.append("landlock: \(error)")
            }
        }
        if report.landlockABI == nil {
            do throws(SandboxError) {
                try NamespaceJail.enter(policy)
                report.namespaces = true
            } catch  where error.reason == .unavailable {
                report.missing.append("namespaces: \(error)")
            }
        }
        try ProcessPrivileges.dropCapabilities()
        if SeccompFilter.isSupported {
            try SeccompFilter.forJobs(process: getpid()).load()
            report.seccomp = true
        } else {
            report.missing.append("seccomp: prctl(PR_GET_SECCOMP) failed: the kernel filters no system call")
        }
        report.setupMilliseconds = (monotonicSeconds() - started) * 1000
        return report
    }

    /// What `confine` is expected to put in place on this kernel, for the worker's start-up log (each job's report
    /// is the authority: the namespaces are only known to work once a job has entered them).
    package static func expectedProtection(mode: SandboxMode) -> String {
        switch mode {
        case .off:
            return "none (--job-sandbox off)"
        case .namespaces:
            return "namespaces" + (SeccompFilter.isSupported ? "+seccomp" : "")
        case .auto:
            let landlock = try? LandlockRuleset.kernelABI()
            let files = landlock.map { "landlock (ABI \($0))" } ?? "namespaces (no Landlock in this kernel)"
            return files + (SeccompFilter.isSupported ? "+seccomp" : " (no seccomp in this kernel)")
        }
    }

    static func rights(for access: SandboxPolicy.Access) -> LandlockAccess {
        switch access {
        case .read: .read
        case .device: .device
        case .scratch: .scratch
        }
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
