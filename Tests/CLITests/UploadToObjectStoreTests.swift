import Catalog
import Deadlines
import Foundation
import GRDB
import MediaFixtures
import MediaModel
import NIOCore
import ObjectStore
import SQLiteCatalog
import SigV4
import TestServers
import Testing

/// `reel upload` into `reel serve --library s3://...`: the upload goes to the store, not to the server's disk, so a
/// server started after a SIGKILL with none of the first one's files takes it over.
@Suite(.timeLimit(.minutes(15))) struct UploadToObjectStoreTests {
    @Test func anUploadToTheStoreSurvivesItsServerAndAServerWithNoneOfItsFilesFinishesIt() async throws {
        let directory = try TemporaryDirectory()
        let store = try await SeaweedTestServer.shared()
        let prefix = SeaweedTestServer.newPrefix()
        let catalog = directory.file("catalog.sqlite")
        let ladder = try directory.write("ladder.json", text: TestLadder.twoRungJSON)
        let created = try await ReelProcess.run([
            "token", "create", "--database", catalog, "--name", "phone", "--rate-limit", "1",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // Over one 5 MiB part, and under the 10 MB and the high tier's bitrate that reel upload sends as they are.
        let source = try await SharedClip.uploadable()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: source)[.size] as? Int)
        try #require(size > 5_300_000 && size < 10_000_000, "the clip is \(size) bytes")

        // Each server has an inbox (and scratch space) of its own: the second shares nothing local with the first.
        func server(_ name: String, port: Int) throws -> ChildProcess {
            let inbox = directory.file(name + "/inbox")
            try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
            return try ChildProcess(
                [
                    ReelProcess.executable, "serve", "--database", catalog, "--library",
                    store.libraryURL(prefix: prefix),
                    "--inbox", inbox, "--settle", "0.3", "--poll-interval", "0.1", "--ladder", ladder, "--port",
                    String(port),
                ], environment: store.environment)
        }
        let first = try server("a", port: 0)
        #expect(await listens(first), "reel serve never said it was listening: \(first.stderr)")
        let base = first.stdout.split(separator: "\n").first.map { String($0.split(separator: " ").last ?? "") } ?? ""
        let port = try #require(Int(base.split(separator: ":").last ?? ""))
        let client = try ChildProcess(
            [
                ReelProcess.executable, "upload", source, "--server", base, "--token", token, "--chunk-mb", "2",
                "--json",
            ],
            environment: ["XDG_CACHE_HOME": directory.file("cache"), "HOME": directory.path])
        let feed = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: catalog))
        let received: @Sendable (Database) throws -> Int64 = { db in
            try Int64.fetchOne(db, sql: "SELECT max(received) FROM uploads") ?? 0
        }
        // Past the first part (so the store holds a part and a tail), then killed, watched on a thread of its own.
        let underWay = try await onOwnThread("kills the server once 6 MB are in") {
            let underWay = try ChildProcess.waitUntil(seconds: 120) {
                try feed.database.pool.read(received) >= 6_000_000
            }
            first.signal(SIGKILL)
            return underWay
        }
        #expect(underWay, "the upload never got past 6 MB within 120 s: \(client.stdout)")
        try await first.exit(within: .seconds(30))
        let acknowledged = try await feed.database.pool.read(received)
        #expect(acknowledged < Int64(size), "the upload finished before the kill")
        let local =
            FileManager.default.enumerator(atPath: directory.file("a"))?.compactMap { path -> Int? in
                let attributes = try? FileManager.default.attributesOfItem(atPath: directory.file("a/\(path)"))
                return attributes?[.size] as? Int
            }.reduce(0, +) ?? 0
        #expect(local < 1_000_000, "the first server kept \(local) bytes on its disk; the upload belongs in the store")

        let s3 = S3Client(
            location: try S3Location(parsing: store.libraryURL(prefix: prefix)),
            credentials: SigV4Credentials(accessKeyID: store.accessKeyID, secretAccessKey: store.secretAccessKey))
        let second = try server("b", port: port)
        do {
            try await withProcesses([second]) {
                #expect(await listens(second), "the second reel serve never listened: \(second.stderr)")
                let status = try await client.exit(within: .seconds(600))
                #expect(status == 0, "reel upload: \(client.stdout)\n\(client.stderr)")
                let events = client.stdout.split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }
                let done = try #require(events.last { $0["event"] as? String == "done" }, "\(client.stdout)")
                #expect(done["state"] as? String == "published", "\(second.stderr.suffix(3000))")
                let master = try #require(done["master_url"] as? String)
                let check = try await ReelProcess.run(["hls-check", master])
                #expect(check.status == 0, "\(check.stdout) \(check.stderr)")

                let job = try #require(try await feed.jobs(state: .published).first)
                let original = try await s3.get(try ObjectKey(ObjectLayout.original(job.id)), limit: 64 << 20)
                let file = Array(try Data(contentsOf: URL(fileURLWithPath: source)))
                #expect(
                    original.getBytes(at: original.readerIndex, length: original.readableBytes) == file,
                    "the original in the store is the file, byte for byte")
                let left = try await s3.list(prefix: ObjectLayout.uploads).map(\.key)
                #expect(left.isEmpty, "the upload's info and tail objects are gone: \(left)")
            }
        } catch {
            try? await s3.shutdown()
            throw error
        }
        try await s3.shutdown()
    }
}
