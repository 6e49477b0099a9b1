internal import Synchronization

#if canImport(Glibc)
internal import Glibc
#endif

/// The client half of a pre-forking process server (see `ForkServer` for the protocol). It starts the server on
/// first use, and again if the server has died; each `start` forks one child there and returns it as a
/// `ForkedProcess`, polled and killed like a `Subprocess`.
package final class ForkServerClient: Sendable {
    private let arguments: [String]
    private let environment: [String: String]
    private let state = Mutex(State())

    private struct State: ~Copyable {
        var server: Connection?
        /// Children that have ended, until their owner asks.
        var ended: [pid_t: Subprocess.Termination] = [:]
        /// Children started and not yet reported ended.
        var running: Set<pid_t> = []
    }

    private struct Connection {
        let process: Subprocess
        let requests: Pipe.WriteEnd
        let replies: Pipe.ReadEnd
        var buffer: [UInt8] = []
    }

    /// `arguments` start the server (an absolute path first); it gets `environment` and shares this process's stderr.
    package init(arguments: [String], environment: [String: String]) {
        self.arguments = arguments
        self.environment = environment
    }

    deinit {
        // The server goes with its client (reaped, not left a zombie); children still running die with it.
        state.withLock { state in
            if let server = state.server { _ = server.process.kill() }
            state.server = nil
        }
    }

    /// Sends `request` (one line, no newline in it) and returns the child the server forked for it.
    /// - Throws: `FileSystemError` when the server cannot be started, dies, or cannot fork.
    package func start(_ request: String) throws(FileSystemError) -> ForkedProcess {
        precondition(!request.utf8.contains(0x0A), "a fork-server request is one line")
        return try state.withLock { state throws(FileSystemError) -> ForkedProcess in
            // A server that died since the last request is replaced, once.
            for attempt in 0..<2 {
                if state.server == nil { state.server = try Self.launch(arguments, environment) }
                do throws(FileSystemError) {
                    try state.server!.requests.write(Array((request + "\n").utf8))
                } catch {
                    guard error.code == EPIPE, attempt == 0 else { throw error }
                    Self.serverEnded(&state)
                    continue
                }
                while let line = try Self.nextLine(&state, waiting: true), state.server != nil || !line.isEmpty {
                    if line.hasPrefix("started "), let pid = pid_t(line.dropFirst(8)) {
                        state.running.insert(pid)
                        return ForkedProcess(pid: pid, client: self)
                    }
                    if line.hasPrefix("failed ") {
                        let code = Int32(line.dropFirst(7).prefix { $0 != " " }) ?? EIO
                        throw FileSystemError("fork (job server: \(line.dropFirst(7)))", arguments[0], code: code)
                    }
                }
                // The server died before it replied.
                throw FileSystemError("fork (the job server ended before it replied)", arguments[0], code: EPIPE)
            }
            throw FileSystemError("write", arguments[0], code: EPIPE)
        }
    }

    /// Blocks until the server reports something (a child ended) or `seconds` pass, without reading the report:
    /// a caller that polls its children waits here instead of sleeping, and sees an end at once.
    package func waitForReport(timeout seconds: Double) {
        let replies: Pipe.ReadEnd? = state.withLock { state in
            // A whole report already buffered: nothing to wait for. (An end read while a start waited for its reply
            // is already recorded; its owner sees it at its next look, within `seconds`.)
            guard let server = state.server, !server.buffer.contains(0x0A) else { return nil }
            return server.replies
        }
        _ = replies?.waitReadable(timeout: seconds)
    }

    /// How `pid` ended, if it has; with `waiting`, blocks until it has.
    func termination(of pid: pid_t, waiting: Bool) -> Subprocess.Termination? {
        state.withLock { state in
            while true {
                if let ended = state.ended.removeValue(forKey: pid) { return ended }
                guard state.running.contains(pid) else { return nil }
                do {
                    guard try Self.nextLine(&state, waiting: waiting) != nil else { return nil }
                } catch {
                    Self.serverEnded(&state)
                }
            }
        }
    }

    /// The next reply line, recording `ended` lines on the way; nil when none is there and `waiting` is false.
    /// At end of file the server has died: its children die with it (PR_SET_PDEATHSIG) and are recorded as killed.
    private static func nextLine(_ state: inout State, waiting: Bool) throws(FileSystemError) -> String? {
        while true {
            guard var server = state.server else { return "" }
            if let newline = server.buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: server.buffer[..<newline], as: UTF8.self)
                server.buffer.removeSubrange(...newline)
                state.server = server
                let fields = line.split(separator: " ")
                if fields.count == 3, fields[0] == "ended", let pid = pid_t(fields[1]), let status = Int32(fields[2]) {
                    state.running.remove(pid)
                    state.ended[pid] = Subprocess.termination(status)
                }
                return line
            }
            guard let bytes = try server.replies.read(waiting: waiting) else { return nil }
            if bytes.isEmpty {
                serverEnded(&state)
                return ""
            }
            server.buffer += bytes
            state.server = server
        }
    }

    /// The server is gone: reaped, and every child it still had recorded as killed.
    private static func serverEnded(_ state: inout State) {
        if let server = state.server { _ = server.process.kill() }
        state.server = nil
        for pid in state.running { state.ended[pid] = .signalled(SIGKILL) }
        state.running.removeAll()
    }

    private static func launch(
        _ arguments: [String], _ environment: [String: String]
    ) throws(FileSystemError) -> Connection {
        // A write to a server that has just died must fail with EPIPE, not kill this process.
        signal(SIGPIPE, SIG_IGN)
        let requests = try Pipe.make(), replies = try Pipe.make()
        let process = try Subprocess(arguments, environment: environment, stdin: requests.read, stdout: replies.write)
        return Connection(process: process, requests: requests.write, replies: replies.read)
    }
}

/// A child forked by the job server: polled and killed like a `Subprocess`, whose exit status the server reports.
package final class ForkedProcess: Sendable {
    package let pid: Int32
    private let client: ForkServerClient
    private let ended = Mutex<Subprocess.Termination?>(nil)

    init(pid: Int32, client: ForkServerClient) {
        self.pid = pid
        self.client = client
    }

    /// The termination if the process has ended, without waiting.
    package func poll() -> Subprocess.Termination? { termination(waiting: false) }

    /// Waits for the end.
    @discardableResult
    package func wait() -> Subprocess.Termination { termination(waiting: true) ?? .signalled(SIGKILL) }

    /// The server reports an end once; it is kept here for every later question.
    private func termination(waiting: Bool) -> Subprocess.Termination? {
        ended.withLock { ended in
            if ended == nil { ended = client.termination(of: pid, waiting: waiting) }
            return ended
        }
    }

    /// SIGKILL to its whole process group (encoder threads included), then waits for the server to report it.
    /// Once it is known to have ended, nothing is signalled: its pid may belong to someone else by then.
    package func kill() -> Subprocess.Termination {
        if let ended = poll() { return ended }
        _ = Glibc.kill(-pid, SIGKILL)
        return wait()
    }
}
