import Deadlines
import Foundation
import MediaFixtures
import NIOCore
import ObjectStore
import SigV4
import TestServers

#if canImport(Glibc)
import Glibc
#endif

/// Three (or more) simulated hosts around one PostgreSQL catalog on the root namespace's bridge address, sharing one
/// library and one inbox on this machine's file system (what NFS gives real hosts). Everything the tests check is
/// read from outside the workers: psql for the catalog, curl for the servers, the library's files.
final class MultiHostRig {
    let hosts: NetworkHosts
    let server: PostgresTestServer
    let directory: TemporaryDirectory
    let database = "reel"
    var inbox: String { directory.file("inbox") }
    var library: String { directory.file("library") }
    var url: String { server.url(database: database) }

    /// Every process `worker` and `serve` started, stopped by `finish`.
    private var started: [ChildProcess] = []
    /// The library in object storage, for the tests with no shared directory (`startObjectStore`).
    private(set) var objectStore: SeaweedTestServer?
    private var objectClient: S3Client?

    /// A rig for `body`, finished after it whether it returned or threw: its processes stopped and its hosts removed.
    static func with<T>(hosts count: Int = 3, _ body: (MultiHostRig) async throws -> T) async throws -> T {
        let rig = try await MultiHostRig(hosts: count)
        do {
            let value = try await body(rig)
            await rig.finish()
            return value
        } catch {
            await rig.finish()
            throw error
        }
    }

    private init(hosts count: Int) async throws {
        hosts = try await NetworkHosts.make(count: count)
        server = try await PostgresTestServer(host: hosts.rootAddress, trusting: [hosts.subnet])
        try await server.createDatabase(database)
        directory = try TemporaryDirectory()
        for path in [inbox, library] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
    }

    /// Stops every process the rig started (SIGTERM, SIGKILL after 30 s), then removes the hosts.
    func finish() async {
        for process in started.reversed() { await process.stop(SIGTERM, within: .seconds(30)) }
        try? await objectClient?.shutdown()
        await objectStore?.stop()
        try? await hosts.close()
    }

    static var reel: String { ReelExecutable.path }

    /// `reel worker` on host `index`: short leases and polls, one job at a time, one JSON line per finished job.
    func worker(on index: Int, leaseSeconds: Int = 3) throws -> ChildProcess {
        let worker = try hosts.run(
            hosts.hosts[index], Self.reel,
            [
                "worker", "--inbox", inbox, "--library", library, "--database", url, "--jobs", "1", "--json",
                "--lease-seconds", String(leaseSeconds), "--poll-interval", "0.1", "--settle", "0.3", "--grace", "5",
            ])
        started.append(worker)
        return worker
    }

    /// A SeaweedFS on the root namespace's bridge address, which every host reaches (and nothing outside this
    /// machine does): the library for `objectWorker` and `serve(on:fromStore:)`.
    func startObjectStore() async throws {
        let store = try await SeaweedTestServer(host: hosts.rootAddress)
        objectStore = store
        objectClient = S3Client(
            location: try S3Location(parsing: store.libraryURL(prefix: "lib")),
            credentials: SigV4Credentials(accessKeyID: store.accessKeyID, secretAccessKey: store.secretAccessKey))
    }

    var storeLibrary: String { objectStore?.libraryURL(prefix: "lib") ?? "" }

    /// Host `index`'s own inbox and scratch directory: with the library in the store, hosts share no directory.
    func inbox(of index: Int) -> String { directory.file("host\(index)/inbox") }
    func scratch(of index: Int) -> String { directory.file("host\(index)/scratch") }

    /// `reel worker` on host `index` with the library in the store, its own inbox and scratch, the two-rung ladder,
    /// and `fault` (a kill point of the test build) if given.
    func objectWorker(on index: Int, leaseSeconds: Int = 3, fault: String? = nil) throws -> ChildProcess {
        try FileManager.default.createDirectory(atPath: inbox(of: index), withIntermediateDirectories: true)
        let ladder = directory.file("ladder.json")
        try Data(TestLadder.twoRungJSON.utf8).write(to: URL(fileURLWithPath: ladder))
        var environment = objectStore?.environment ?? [:]
        if let fault { environment["REEL_FAULT_INJECTION"] = fault }
        let worker = try hosts.run(
            hosts.hosts[index], Self.reel,
            [
                "worker", "--inbox", inbox(of: index), "--library", storeLibrary, "--scratch", scratch(of: index),
                "--database", url, "--jobs", "1", "--json", "--lease-seconds", String(leaseSeconds),
                "--poll-interval", "0.1", "--settle", "0.3", "--grace", "5", "--ladder", ladder,
            ], environment: environment)
        started.append(worker)
        return worker
    }

    /// Every key in the store's library, sorted.
    func objectKeys() async throws -> [String] {
        guard let objectClient else { throw RigError("no object store: call startObjectStore first") }
        return try await objectClient.list(prefix: "").map(\.key).sorted()
    }

    /// The bytes of `key` in the store's library.
    func objectBytes(_ key: String) async throws -> [UInt8] {
        guard let objectClient else { throw RigError("no object store: call startObjectStore first") }
        let buffer = try await objectClient.get(try ObjectKey(key), limit: 64 << 20)
        return buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes) ?? []
    }

    /// `reel serve` on host `index`, listening on that host's address; returns it once it listens, with its base URL.
    /// With `fromStore` its library is the object store's.
    func serve(
        on index: Int, fromStore: Bool = false, fault: String? = nil, logLevel: String = "warning",
        options: [String] = []
    ) async throws -> (process: ChildProcess, base: String) {
        let host = hosts.hosts[index]
        var environment = fromStore ? objectStore?.environment ?? [:] : [:]
        if let fault { environment["REEL_FAULT_INJECTION"] = fault }
        let process = try hosts.run(
            host, Self.reel,
            [
                "serve", "--database", url, "--library", fromStore ? storeLibrary : library, "--host", host.address,
                "--port", "0", "--log-level", logLevel,
            ] + options, environment: environment)
        started.append(process)
        guard
            await ChildProcess.suspendUntil(
                seconds: 60, { process.stdout.hasPrefix("listening on http://") || process.hasExited }),
            let base = process.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init)
        else {
            process.signal(SIGKILL)
            throw RigError("reel serve on \(host) did not start: \(process.stderr.suffix(3000))")
        }
        return (process, base)
    }

    /// Puts an upload in the inbox (or `into` another) as a finished file appears: written under a dotfile name,
    /// then renamed.
    func drop(_ name: String, _ bytes: [UInt8], into folder: String? = nil) throws {
        let inbox = folder ?? self.inbox
        let hidden = inbox + "/." + name + ".part"
        try Data(bytes).write(to: URL(fileURLWithPath: hidden))
        guard rename(hidden, inbox + "/" + name) == 0 else {
            throw RigError("rename \(hidden): \(String(cString: strerror(errno)))")
        }
    }

    /// A clip whose ladder takes this machine a while (`seconds` of 720p), so a test can act while it is processing.
    /// The encode runs on a thread of its own, not on the concurrency pool.
    func dropSlowVideo(_ name: String, seconds: Double = 6, into folder: String? = nil) async throws {
        let inbox = folder ?? self.inbox
        let path = directory.file("." + name + ".src")
        try await onOwnThread("encodes \(seconds) s of 720p for \(name)") {
            try SyntheticVideo(width: 1280, height: 720, seconds: seconds).write(to: path)
        }
        guard rename(path, inbox + "/" + name) == 0 else {
            throw RigError("rename \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// One SQL statement through psql from the root namespace: its rows, columns separated by `|`.
    func sql(_ statement: String) async throws -> [String] {
        let result = try await ChildProcess.run([
            server.psql, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", statement,
            "host=\(server.host) port=\(server.port) user=\(PostgresTestServer.user) dbname=\(database) connect_timeout=5",
        ])
        guard result.status == 0 else { throw RigError("psql \(statement): \(result.stderr)") }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// `job|state|epoch|attempts|owner|media_id` for every job; none before a worker has made the schema (a loaded
    /// machine can be polled before the first worker's migrations ran: the test then waits, and says so if none does).
    func jobs() async throws -> [Job] {
        let exists = try await sql("SELECT to_regclass('jobs') IS NOT NULL")
        guard exists.first == "t" else { return [] }
        return try await sql(
            "SELECT id, state, epoch, attempts, coalesce(owner, ''), coalesce(media_id, '') FROM jobs ORDER BY id"
        ).map { line in
            let f = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return Job(
                id: f[0], state: f[1], epoch: Int(f[2]) ?? -1, attempts: Int(f[3]) ?? -1, owner: f[4], mediaID: f[5])
        }
    }

    struct Job: Equatable {
        let id: String
        let state: String
        let epoch: Int
        let attempts: Int
        let owner: String
        let mediaID: String
    }

    /// The job ids a worker reported as finished (its `--json` lines), with their states.
    static func reports(of worker: ChildProcess) -> [(job: String, state: String)] {
        worker.stdout.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let job = object["job"] as? String, let state = object["state"] as? String
            else { return nil }
            return (job, state)
        }
    }

    /// The workers' reports once there are `count` of them, or after `seconds`: a worker prints its report after the
    /// catalog says published, so a test that saw the state read stdout too early (seen in a clean clone's run).
    static func reports(
        of workers: [ChildProcess], reaching count: Int, seconds: Double = 30
    ) async -> [(job: String, state: String)] {
        _ = await ChildProcess.suspendUntil(seconds: seconds) {
            workers.flatMap { reports(of: $0) }.count >= count
        }
        return workers.flatMap { reports(of: $0) }
    }

    /// GET with curl from the root namespace: status and body (a request that gets no answer in 20 s has status 0).
    static func get(_ url: String) async throws -> (status: Int, body: String) {
        let result = try await ChildProcess.run([
            "/usr/bin/curl", "-s", "--max-time", "20", "-w", "\n%{http_code}", url,
        ])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    static func entries(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }
}

struct RigError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
