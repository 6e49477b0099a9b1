#if REEL_TEST_HOOKS
internal import CSandbox

#if canImport(Glibc)
internal import Glibc
#endif

/// Test hook (debug builds only): what a confined job can still do, tried for real from inside it. Each entry is
/// the errno of one attempt, 0 when it succeeded. `reel worker-job` runs it for the `job-sandbox-probe` fault.
package enum SandboxProbe {
    /// `input` must be readable and `scratch` writable; `outside` is a file beside them that must not be.
    package static func run(input: String, scratch: String, outside: String) -> [String: Int32] {
        var results: [String: Int32] = [:]
        func attempt(_ name: String, _ result: Int32) {
            results[name] = result < 0 ? errno : 0
            if result >= 0 { close(result) }
        }
        let directory = String(input[..<(input.lastIndex(of: "/") ?? input.startIndex)])
        let scratchParent = String(scratch[..<(scratch.lastIndex(of: "/") ?? scratch.startIndex)])
        attempt("read_input", open(input, O_RDONLY | O_CLOEXEC))
        attempt("write_scratch", open(scratch + "/probe-write", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600))
        attempt("read_etc_hostname", open("/etc/hostname", O_RDONLY | O_CLOEXEC))
        attempt("read_etc_passwd", open("/etc/passwd", O_RDONLY | O_CLOEXEC))
        attempt("read_outside", open(outside, O_RDONLY | O_CLOEXEC))
        attempt("list_input_directory", open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC))
        attempt("write_input", open(input, O_WRONLY | O_CLOEXEC))
        attempt(
            "write_beside_scratch",
            open(scratchParent + "/probe-escaped-\(getpid())", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600))
        attempt("write_tmp", open("/tmp/reel-probe-\(getpid())", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600))
        attempt("socket_inet", socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0))
        attempt("socket_inet6", socket(AF_INET6, Int32(SOCK_DGRAM.rawValue), 0))
        attempt("socket_unix", socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0))
        attempt("socket_netlink", socket(AF_NETLINK, Int32(SOCK_RAW.rawValue), 0))
        attempt("signal_parent", kill(getppid(), 0))
        var unlimited = rlimit(rlim_cur: rlim_t.max, rlim_max: rlim_t.max)
        attempt("raise_address_space_limit", setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &unlimited))
        results["no_new_privileges"] = ProcessPrivileges.newPrivilegesForbidden ? 1 : 0
        results["has_capabilities"] = hasEffectiveCapabilities ? 1 : 0
        results["effective_uid"] = Int32(bitPattern: geteuid())
        // In a child each: on an unconfined process these succeed and change it (a new user namespace; another
        // program in its place). The child's exit status carries the errno.
        results["unshare_user_namespace"] = inChild { CSandbox_unshare(CSandbox_CLONE_NEWUSER) == 0 ? 0 : errno }
        results["execute_program"] = inChild {
            let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
            execv("/bin/true", arguments)
            return errno
        }
        return results
    }

    /// Whether /proc/self/status shows any effective capability (a job started as root holds all of them unless it
    /// drops them).
    private static var hasEffectiveCapabilities: Bool {
        guard let status = try? ProcFile.contents(of: "/proc/self/status") else { return true }
        let line = String(decoding: status, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("CapEff:") }
        return line.map { !$0.dropFirst(7).allSatisfy { $0 == "0" || $0 == " " || $0 == "\t" } } ?? true
    }

    /// Runs `body` in a forked child and returns its exit status (the errno it reported, 0 for success), or -1
    /// when no child could be started.
    private static func inChild(_ body: () -> Int32) -> Int32 {
        let child = fork()
        if child < 0 { return -1 }
        if child == 0 { _exit(body()) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
    }
}
#endif
