import Deadlines
import FileSystem
import Foundation
import MediaFixtures

#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL server for tests: Debian's binaries, `initdb` into a temporary directory as an
/// unprivileged user (PostgreSQL refuses to run as root), a private port and socket directory, no fsync. Each
/// test makes its own server or its own database on one; the server is stopped and its files removed in deinit.
/// `@unchecked Sendable`: one test's task at a time starts, stops or kills it; the rest is immutable after init.
package final class PostgresTestServer: @unchecked Sendable {
    package struct SetupError: Error, CustomStringConvertible {
        package let description: String
        /// The server exited because its port was bound by someone else.
        let portTaken: Bool

        init(description: String, portTaken: Bool = false) {
            self.description = description
            self.portTaken = portTaken
        }
    }

    /// The superuser `initdb` creates; it connects without a password (trust), over TCP or the socket.
    package static let user = "reel"

    /// Fixed once the server first listens: a restart after `stop` comes back on it.
    package private(set) var port: Int
    /// The address it listens on: loopback, or a namespace's veth address for multi-host tests.
    package let host: String
    package let dataDirectory: String
    package let socketDirectory: String
    private let directory: TemporaryDirectory
    private let binaries: String
    private let runAs: [String]
    private var process: ChildProcess?

    /// Creates the cluster and starts the server, listening on `host`. initdb trusts loopback only; each of
    /// `networks` (IPv4 CIDRs such as `NetworkHosts.subnet`) is trusted too, for the test user alone. `port` is the
    /// first port tried (a free one is picked when nil); a port found taken is replaced by a fresh pick.
    /// - Throws: `SetupError` saying what is missing or which step failed, with its output; `DeadlineExceeded` when
    ///   initdb or the server's start takes over a minute.
    package init(host: String = "127.0.0.1", trusting networks: [String] = [], port: Int? = nil) async throws {
        binaries = try Self.findBinaries()
        directory = try TemporaryDirectory()
        let root = directory.file("postgres")
        dataDirectory = root + "/data"
        socketDirectory = root + "/socket"
        try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
        if getuid() == 0 {
            // The Debian package's own unprivileged account; the cluster's files must be its.
            guard let account = getpwnam("postgres") else {
                throw SetupError(
                    description:
                        "running as root, PostgreSQL needs an unprivileged user: no 'postgres' account (apt-get install postgresql)"
                )
            }
            for path in [root, socketDirectory] {
                guard chown(path, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else {
                    throw SetupError(description: "chown \(path) to postgres: \(String(cString: strerror(errno)))")
                }
            }
            runAs = ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"]
        } else {
            runAs = []
        }
        self.host = host
        self.port = try port ?? FreePort.pick(host: host)
        let initdb = try await ChildProcess.run(
            runAs + [
                binaries + "/initdb", "-D", dataDirectory, "-U", Self.user, "-A", "trust",
                "-E", "UTF8", "--locale=C", "--no-sync",
            ])
        guard initdb.status == 0 else {
            throw SetupError(
                description: "initdb -D \(dataDirectory) failed (\(initdb.status)): \(initdb.stderr)\(initdb.stdout)")
        }
        try trust(networks)
        // The port was free when picked; another test may bind it first. Then the server exits at once saying so,
        // and a new pick is tried.
        for attempt in 1...Self.portAttempts {
            do {
                try await start()
                return
            } catch let error as SetupError where error.portTaken && attempt < Self.portAttempts {
                self.port = try FreePort.pick(host: host)
            }
        }
    }

    /// Starts tried, each on a fresh port, when the port picked was taken before the server bound it.
    static let portAttempts = 5

    /// A server still running is killed with its backends (SIGKILL to the group) and reaped before its files go.
    deinit {
        process = nil
    }

    /// `postgres://reel@host:port/database`, as `--database` and `REEL_DATABASE_URL` take it.
    package func url(database: String = "postgres") -> String {
        "postgres://\(Self.user)@\(host):\(port)/\(database)"
    }

    /// Starts the server on the existing cluster (again, after `stop`) and waits until it accepts connections. The
    /// default limit is 120 s: with two test runs and a sanitizer run on 2 cores, a server took over 60 s to be ready.
    /// - Throws: `SetupError` with the server's log when it exits or does not get ready within `limit`.
    package func start(within limit: Duration = .seconds(120)) async throws {
        guard process == nil else { return }
        let server = try ChildProcess(
            runAs + [
                binaries + "/postgres", "-D", dataDirectory, "-p", String(port), "-k", socketDirectory,
                // No fsync (the machine does not crash under a test), but every commit is written before it is
                // acknowledged, so a killed server loses nothing a client was told is committed.
                "-c", "listen_addresses=\(host)", "-c", "fsync=off", "-c", "full_page_writes=off", "-c",
                "max_connections=200",
            ])
        process = server
        let seconds = Double(limit.components.seconds)
        let ready = await ChildProcess.suspendUntil(seconds: seconds) {
            server.hasExited || server.stderr.contains("database system is ready to accept connections")
        }
        guard ready, !server.hasExited else {
            let exited = server.hasExited
            let log = server.stderr
            await stop()
            let what = exited ? "exited before it was ready" : "was not ready within \(limit)"
            throw SetupError(
                description: "postgres -D \(dataDirectory) -p \(port) \(what): \(log.suffix(2000))",
                portTaken: exited && log.contains("Address already in use"))
        }
    }

    /// Stops the server at once (SIGQUIT: immediate shutdown, as a crash would look to clients) and waits for it,
    /// killing it after `limit`.
    package func stop(within limit: Duration = .seconds(30)) async {
        guard let server = process else { return }
        process = nil
        await server.stop(SIGQUIT, within: limit)
    }

    /// Kills the server with its backends (SIGKILL to the group) without waiting: for exit handlers, which cannot.
    package func kill() {
        if let process { _ = Glibc.kill(-process.pid, SIGKILL) }
    }

    /// Creates a database of its own for one test.
    package func createDatabase(_ name: String) async throws {
        let created = try await ChildProcess.run(
            runAs + [
                binaries + "/createdb", "-h", socketDirectory, "-p", String(port),
                "-U", Self.user, name,
            ])
        guard created.status == 0 else {
            throw SetupError(description: "createdb \(name) failed (\(created.status)): \(created.stderr)")
        }
    }

    /// Appends a `host all reel <network> trust` line per network to pg_hba.conf (read when the server starts).
    private func trust(_ networks: [String]) throws {
        guard !networks.isEmpty else { return }
        let path = dataDirectory + "/pg_hba.conf"
        let lines = networks.map { "host all \(Self.user) \($0) trust\n" }.joined()
        guard let file = FileHandle(forWritingAtPath: path) else {
            throw SetupError(description: "cannot open \(path) to trust \(networks.joined(separator: ", "))")
        }
        defer { try? file.close() }
        do {
            try file.seekToEnd()
            try file.write(contentsOf: Data(("# NetworkHosts subnets (multi-host tests)\n" + lines).utf8))
        } catch {
            throw SetupError(description: "appending to \(path): \(error)")
        }
    }

    /// The psql of the same PostgreSQL version, for tests that connect from another namespace.
    package var psql: String { binaries + "/psql" }

    /// The newest PostgreSQL under /usr/lib/postgresql/<version>/bin with initdb in it.
    static func findBinaries() throws -> String {
        let base = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []).compactMap(Int.init)
            .sorted()
        guard
            let version = versions.last(where: {
                FileManager.default.isExecutableFile(atPath: "\(base)/\($0)/bin/initdb")
            })
        else {
            throw SetupError(
                description:
                    "no PostgreSQL server binaries under \(base)/<version>/bin (make test installs Debian's postgresql)"
            )
        }
        return "\(base)/\(version)/bin"
    }
}
