internal import CFileSystem

#if canImport(Glibc)
internal import Glibc
#endif

/// The server half of a pre-forking process server (`ForkServerClient` is the other half): a process that reads one
/// request line at a time on stdin and forks a child for each. Each child starts from the server's state (runtime
/// initialised, libraries loaded) instead of paying for `execve` and dynamic linking again, and is still a process
/// of its own: its own address space, process group, limits and exit status.
///
/// The server forks only while it is single-threaded (it checks): a fork copies only the calling thread, and locks
/// other threads held would stay locked in the child forever.
///
/// The protocol, one line at a time on the server's stdin and stdout:
/// - request: any line (the worker sends a job's JSON);
/// - reply, in request order: `started PID`, or `failed ERRNO MESSAGE`;
/// - whenever a child has ended: `ended PID STATUS`, STATUS being the raw `waitpid` status.
package enum ForkServer {
    /// Serves until stdin closes, then exits; children still running die with it (they should set
    /// `PR_SET_PDEATHSIG`). `child` runs in each forked child with the request and returns its exit code; when it
    /// runs, stdin and stdout are /dev/null, stderr is the server's, and the child leads its own process group.
    package static func serve(_ child: (String) -> Int32) -> Never {
        var pending: [UInt8] = []
        var children: [(pid: pid_t, descriptor: Int32)] = []
        while true {
            var watched =
                [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
                + children.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            if poll(&watched, nfds_t(watched.count), -1) < 0 {
                if errno == EINTR { continue }
                fail("poll")
            }
            // Children that ended: reaped here, reported to the client.
            for (index, entry) in watched.enumerated().dropFirst() where entry.revents != 0 {
                let (pid, descriptor) = children[index - 1]
                var status: Int32 = 0
                let reaped = waitpid(pid, &status, WNOHANG)
                if reaped == 0 { continue }
                // Reaped by someone else (SIGCHLD ignored): it ended, how is lost; reported as killed.
                if reaped < 0 { status = SIGKILL }
                close(descriptor)
                children.removeAll { $0.pid == pid }
                reply("ended \(pid) \(status)")
            }
            guard watched[0].revents != 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let got = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                fail("read")
            }
            if got == 0 { exit(0) }  // the client is gone
            pending += buffer.prefix(got)
            while let newline = pending.firstIndex(of: 0x0A) {
                let request = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if let started = start(request, child, closing: children.map(\.descriptor)) { children.append(started) }
            }
        }
    }

    /// Forks one child for `request` and replies; nil (after a `failed` reply) when it could not.
    private static func start(
        _ request: String, _ child: (String) -> Int32, closing inherited: [Int32]
    ) -> (pid: pid_t, descriptor: Int32)? {
        let threads = (try? Directory.entries(of: "/proc/self/task").count) ?? 0
        guard threads == 1 else {
            reply("failed \(EDEADLK) the job server has \(threads) threads and forks only with one")
            return nil
        }
        let server = getpid()
        let pid = fork()
        if pid < 0 {
            reply("failed \(errno) fork: \(String(cString: strerror(errno)))")
            return nil
        }
        if pid == 0 {
            // First of all, against the server's pid read before the fork: a server killed at once (its worker
            // SIGKILLed) takes this child with it. Set only in the job, checked against the child's own getppid(), a
            // hung job outlived its server and worker in CI under load: the server died between the fork and the
            // job's prctl, so the child's getppid() already named the reaper and the check passed.
            ResourceLimits.dieWithParent(expected: server)
            // The child: off the protocol pipes, in a process group of its own (the client kills the group).
            _ = setpgid(0, 0)
            inherited.forEach { close($0) }
            let null = open("/dev/null", O_RDWR)
            if null >= 0 {
                _ = dup2(null, 0)
                _ = dup2(null, 1)
                if null > 2 { close(null) }
            }
            exit(child(request))
        }
        // Also here, so the group exists before the client can signal it.
        _ = setpgid(pid, pid)
        let descriptor = CFileSystem_pidfdOpen(pid)
        guard descriptor >= 0 else {
            let code = errno
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            reply("failed \(code) pidfd_open: \(String(cString: strerror(code)))")
            return nil
        }
        reply("started \(pid)")
        return (pid, descriptor)
    }

    private static func reply(_ line: String) {
        do { try AtomicFile.writeAll(Array((line + "\n").utf8), to: 1, path: "stdout") } catch { exit(1) }
    }

    private static func fail(_ call: String) -> Never {
        StandardError.write("job server: \(FileSystemError(call, "job server"))\n")
        exit(1)
    }
}
