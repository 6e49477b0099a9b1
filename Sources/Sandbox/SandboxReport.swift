/// What a job process's sandbox turned out to be on this kernel: the job records it in its outcome, and the worker
/// logs it with the job, counts it in its metrics and puts it in `reel worker --json`'s lines.
package struct SandboxReport: Codable, Sendable, Equatable {
    package var mode: SandboxMode
    /// The Landlock ABI the job was confined with; nil when Landlock was not used.
    package var landlockABI: Int?
    /// User, mount, network, IPC and UTS namespaces with only the policy's paths in them.
    package var namespaces = false
    package var seccomp = false
    package var noNewPrivileges = false
    /// Why a protection is missing (the kernel's answer), when one is.
    package var missing: [String] = []
    /// Wall time the set-up took inside the job, in milliseconds.
    package var setupMilliseconds = 0.0

    package init(mode: SandboxMode) { self.mode = mode }

    /// `landlock+seccomp`, `namespaces+seccomp`, `seccomp`, `landlock`, ... or `none`.
    package var protection: String {
        var parts: [String] = []
        if landlockABI != nil { parts.append("landlock") }
        if namespaces { parts.append("namespaces") }
        if seccomp { parts.append("seccomp") }
        return parts.isEmpty ? "none" : parts.joined(separator: "+")
    }

    /// The files confined, the network closed and privileges frozen: what issue 62 asks of every job.
    package var isComplete: Bool {
        (landlockABI != nil || namespaces) && (seccomp || namespaces) && noNewPrivileges
    }
}
