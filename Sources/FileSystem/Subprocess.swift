internal import CFileSystem
internal import Foundation
internal import Synchronization

#if canImport(Glibc)
internal import Glibc
#endif

/// A child process in its own process group, its output going to files, polled without blocking.
package final class Subprocess: Sendable {
    package enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    package let pid: Int32
    private let ended = Mutex<Termination?>(nil)

    /// How it ended, once it has been reaped.
    package var termination: Termination? { ended.withLock { $0 } }

    /// Starts `arguments[0]` (an absolute path) with stdin from /dev/null.
    package convenience init(
        _ arguments: [String], environment: [String: String], stdout: String, stderr: String
    ) throws(FileSystemError) {
        try self.init(arguments, environment: environment) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
    }

    /// Starts `arguments[0]` with stdin and stdout on the given pipe ends (a conversation with the child) and
    /// stderr shared with this process. The descriptors stay open here; the caller closes its copies.
    package convenience init(
        _ arguments: [String], environment: [String: String], stdin: Pipe.ReadEnd, stdout: Pipe.WriteEnd
    ) throws(FileSystemError) {
        try self.init(arguments, environment: environment) { actions in
            posix_spawn_file_actions_adddup2(&actions, stdin.descriptor, 0)
            posix_spawn_file_actions_adddup2(&actions, stdout.descriptor, 1)
        }
    }

    private init(
        _ arguments: [String], environment: [String: String],
        streams: (inout posix_spawn_file_actions_t) -> Void
    ) throws(FileSystemError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        streams(&actions)
        // Nothing else this process has open reaches the child. NIO does not mark the sockets it accepts
        // close-on-exec, so a child started while viewers were connected kept their connections open after the
        // server closed them (no FIN until the child ended), and held them in a process that runs untrusted media.
        let closing = CFileSystem_spawnClosesFrom(&actions, 3)
        guard closing == 0 else {
            throw FileSystemError("posix_spawn_file_actions_addclosefrom_np", arguments[0], code: closing)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard status == 0 else { throw FileSystemError("posix_spawn", arguments[0], code: status) }
        self.pid = pid
    }

    /// The termination if the process has ended, without waiting.
    package func poll() -> Termination? {
        ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            ended = Self.termination(status)
            return ended
        }
    }

    /// Waits for the end, blocking the thread: for synchronous callers on threads of their own. Async code awaits
    /// `exit()` instead, which never blocks a thread of the concurrency pool.
    @available(*, noasync, message: "blocks the thread until the process ends: await exit() instead")
    @discardableResult
    package func wait() -> Termination {
        ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let termination = Self.termination(status)
            ended = termination
            return termination
        }
    }

    /// Suspends until the process ends (looking every `interval`, without blocking a thread) and returns how.
    /// Cancelling the caller ends the wait early with nil; the process is left running.
    package func exit(polling interval: Duration = .milliseconds(20)) async -> Termination? {
        while !Task.isCancelled {
            if let termination = poll() { return termination }
            try? await Task.sleep(for: interval)
        }
        return poll()
    }

    static func termination(_ status: Int32) -> Termination {
        (status & 0x7F) == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
    }

    /// Sends `signal` to the process alone.
    package func send(_ signal: Int32) { _ = Glibc.kill(pid, signal) }

    /// SIGKILL to the whole process group (encoder threads included), then reaps it.
    package func kill() -> Termination {
        if let termination { return termination }
        _ = Glibc.kill(-pid, SIGKILL)
        return wait()
    }

    /// This executable's own path, for re-executing itself.
    package static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    package static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGABRT: "SIGABRT"
        case SIGILL: "SIGILL"
        case SIGFPE: "SIGFPE"
        case SIGKILL: "SIGKILL"
        case SIGXCPU: "SIGXCPU"
        case SIGTERM: "SIGTERM"
        case SIGTRAP: "SIGTRAP"
        default: "signal \(number)"
        }
    }
}
