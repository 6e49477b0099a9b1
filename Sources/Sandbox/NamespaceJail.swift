internal import CSandbox

#if canImport(Glibc)
internal import Glibc
#endif

/// The fallback where the kernel has no Landlock: new user, mount, network, IPC and UTS namespaces, and a root
/// that holds only the policy's paths, each bind-mounted at its own path (read-only unless it is scratch), on an
/// otherwise empty, read-only tmpfs. The network namespace has no interface but a loopback that is down.
package enum NamespaceJail {
    /// Enters the jail; the process's current directory becomes `/`.
    /// - Throws: `SandboxError` `.unavailable` when the kernel refuses the namespaces (no user namespaces, a limit
    ///   reached), `.failed` naming the call when a later step fails (the process is then half-confined and must
    ///   not run the job).
    package static func enter(_ policy: SandboxPolicy) throws(SandboxError) {
        let user = geteuid(), group = getegid()
        try check(
            CSandbox_unshare(
                CSandbox_CLONE_NEWUSER | CSandbox_CLONE_NEWNS | CSandbox_CLONE_NEWNET | CSandbox_CLONE_NEWIPC
                    | CSandbox_CLONE_NEWUTS),
            "unshare", unavailable: [EPERM, EINVAL, ENOSPC, EUSERS, ENOSYS])
        // This user, and no other, exists in the namespace: the outputs stay owned by whoever runs the worker.
        try write("deny", to: "/proc/self/setgroups")
        try write("\(user) \(user) 1", to: "/proc/self/uid_map")
        try write("\(group) \(group) 1", to: "/proc/self/gid_map")
        // Nothing mounted from here on reaches the worker's namespace.
        try check(CSandbox_mount(nil, "/", nil, CSandbox_MS_REC | CSandbox_MS_PRIVATE, nil), "mount(/, MS_PRIVATE)")
        // Everything the jail shows is opened now, before /tmp is covered (a scratch directory may live there), and
        // in the new namespace: a bind mount's source must be a mount of the caller's own namespace.
        var sources: [(rule: SandboxPolicy.Rule, descriptor: Int32, isDirectory: Bool, flags: UInt)] = []
        defer { sources.forEach { close($0.descriptor) } }
        for rule in policy.rules {
            let descriptor = CSandbox_openPath(rule.path)
            if descriptor < 0 {
                if errno == ENOENT && !rule.isRequired { continue }
                throw SandboxError(.failed, call: "open", path: rule.path, code: errno)
            }
            var status = stat()
            var flags: UInt = 0
            guard fstat(descriptor, &status) == 0, CSandbox_mountFlags(rule.path, &flags) == 0 else {
                let code = errno
                close(descriptor)
                throw SandboxError(.failed, call: "fstat/statvfs", path: rule.path, code: code)
            }
            sources.append((rule, descriptor, status.st_mode & S_IFMT == S_IFDIR, flags))
        }
        let root = "/tmp"
        try check(
            CSandbox_mount("tmpfs", root, "tmpfs", CSandbox_MS_NOSUID | CSandbox_MS_NODEV, "mode=0755,size=1m"),
            "mount(tmpfs)", path: root)
        // Outer paths first: a rule beneath another (an upload inside its scratch directory) is mounted on top.
        let depth = { (path: String) in path.split(separator: "/").count }
        for source in sources.sorted(by: { depth($0.rule.path) < depth($1.rule.path) }) {
            let target = root + source.rule.path
            try makeParents(of: target)
            if source.isDirectory {
                if mkdir(target, 0o755) != 0 && errno != EEXIST {
                    throw SandboxError(.failed, call: "mkdir", path: target, code: errno)
                }
            } else {
                close(try check(open(target, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644), "open", path: target))
            }
            try check(
                CSandbox_mount("/proc/self/fd/\(source.descriptor)", target, nil, CSandbox_MS_BIND, nil),
                "mount(MS_BIND)", path: source.rule.path)
            // A bind mount inside a user namespace keeps the flags its source's mount has locked; these add to them.
            var flags = source.flags | CSandbox_MS_NOSUID
            switch source.rule.access {
            case .read: flags |= CSandbox_MS_RDONLY | CSandbox_MS_NODEV
            case .scratch: flags |= CSandbox_MS_NOEXEC | CSandbox_MS_NODEV
            case .device: flags |= CSandbox_MS_NOEXEC
            }
            try check(
                CSandbox_mount(nil, target, nil, CSandbox_MS_REMOUNT | CSandbox_MS_BIND | flags, nil),
                "mount(MS_REMOUNT)", path: source.rule.path)
        }
        // The tmpfs becomes `/`; the old root is detached and gone from this process's view.
        try check(chdir(root), "chdir", path: root)
        try check(CSandbox_pivotRoot(".", "."), "pivot_root", path: root)
        try check(CSandbox_detach("."), "umount2(MNT_DETACH)", path: "old root")
        try check(chdir("/"), "chdir", path: "/")
        try check(
            CSandbox_mount(
                nil, "/", nil,
                CSandbox_MS_REMOUNT | CSandbox_MS_BIND | CSandbox_MS_RDONLY | CSandbox_MS_NOSUID | CSandbox_MS_NODEV,
                nil),
            "mount(/, MS_RDONLY)")
    }

    private static func write(_ text: String, to path: String) throws(SandboxError) {
        let descriptor = try check(open(path, O_WRONLY | O_CLOEXEC), "open", path: path)
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw SandboxError(.failed, call: "write", path: path, code: written < 0 ? errno : EIO)
        }
    }

    /// mkdir -p of `path`'s parent inside the jail's tmpfs.
    private static func makeParents(of path: String) throws(SandboxError) {
        var prefix = ""
        for component in path.split(separator: "/").dropLast() {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw SandboxError(.failed, call: "mkdir", path: prefix, code: errno)
            }
        }
    }
}
