import Catalog
import Foundation
import MediaFixtures
import SQLiteCatalog
import Testing
import ViewerAnalytics

#if canImport(Glibc)
import Glibc
#endif

/// What `reel serve` answered 2xx for survives a power loss: a tus offset, the job a finished upload became, and a
/// batch of viewer events, with the catalog and the library on a file system whose power is cut the moment after the
/// last answer (`PowerLossDisk`). Before the catalog committed with `synchronous=FULL`, all three were lost: GRDB's
/// WAL pool committed without fsync.
@Suite(.serialized, .timeLimit(.minutes(10))) struct PowerLossTests {
    static let chunk = 256 * 1024

    @Test(
        .enabled(
            if: getuid() == 0,
            "skipped: not root. Cutting a file system's power needs a loop device and mount (CI runs as root)"))
    func everyAcknowledgedOffsetJobAndEventBatchSurvivesAPowerLoss() async throws {
        let directory = try TemporaryDirectory()
        try await PowerLossDisk.with(in: directory) { disk in
            let catalog = disk.mountPoint + "/catalog.sqlite", library = disk.mountPoint + "/library"
            let created = try await ReelProcess.run(["token", "create", "--database", catalog, "--name", "power"])
            try #require(created.status == 0, "reel token create: \(created.stderr)")
            let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            // Viewer events are taken only for published videos: one seeded video, v000000000.
            let seeded = try await ReelProcess.run(["db", "seed", "--database", catalog, "--count", "1"])
            try #require(seeded.status == 0, "reel db seed: \(seeded.stderr)")
            let server = try ChildProcess([
                ReelProcess.executable, "serve", "--database", catalog, "--library", library, "--port", "0",
            ])
            let acknowledged = try await withProcesses([server]) {
                #expect(await listens(server, seconds: 60), "reel serve never said it was listening: \(server.stderr)")
                let base = try #require(
                    server.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
                let client = Client(base: base, token: token, directory: directory)
                let acknowledged = try await client.acknowledgeEverything()
                // The power goes the moment after the last answer; the server dies with it.
                try await disk.cutPower()
                _ = await server.stop(SIGKILL)
                return acknowledged
            }
            try await disk.restart()
            try await Self.expectSurvived(acknowledged, catalog: catalog, library: library)
        }
    }

    /// Opens the catalog after the power came back (SQLite replays its WAL) and looks for everything acknowledged.
    static func expectSurvived(_ acknowledged: Acknowledged, catalog: String, library: String) async throws {
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: catalog))
        let partial = try await store.upload(id: acknowledged.partialUpload)
        #expect(partial?.received == Int64(acknowledged.partialOffset), "the acknowledged offset was lost")
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: library + "/.uploads/" + acknowledged.partialUpload)))
        #expect(
            bytes.map { [UInt8]($0.prefix(acknowledged.partialOffset)) } == acknowledged.partialBytes,
            "the bytes up to the acknowledged offset were lost: \(bytes?.count ?? -1) bytes left")

        let job = try await store.job(id: acknowledged.job)
        #expect(job?.state == .queued, "the job of the finished upload was lost: \(String(describing: job))")
        let original = try? Data(contentsOf: URL(fileURLWithPath: library + "/.incoming/" + acknowledged.job))
        #expect(original.map { [UInt8]($0) } == acknowledged.finishedBytes, "the finished upload's file was lost")

        let events = try await store.viewerEvents(after: 0, limit: 10_000).filter {
            $0.event.session == acknowledged.eventSession
        }
        #expect(events.count == acknowledged.eventCount, "the accepted batch of viewer events was lost")
    }

    /// What the server acknowledged, and the bytes behind it.
    struct Acknowledged: Sendable {
        var partialUpload = ""
        var partialOffset = 0
        var partialBytes: [UInt8] = []
        var job = ""
        var finishedBytes: [UInt8] = []
        var eventSession = ""
        var eventCount = 0
    }

    /// curl against the server, one answer at a time.
    struct Client {
        let base: String
        let token: String
        let directory: TemporaryDirectory

        /// Two of three chunks of one upload, the whole of a second (which becomes a queued job), and a batch of
        /// events: each answered 2xx before the next is sent.
        func acknowledgeEverything() async throws -> Acknowledged {
            var acknowledged = Acknowledged()
            let partial = Self.mp4Bytes(3 * PowerLossTests.chunk, seed: 3)
            acknowledged.partialUpload = try await create(length: partial.count)
            for index in 0..<2 {
                let range = index * PowerLossTests.chunk..<(index + 1) * PowerLossTests.chunk
                let answer = try await patch(
                    acknowledged.partialUpload, offset: range.lowerBound, Array(partial[range]))
                try #require(answer.status == 204, "PATCH \(index): \(answer)")
                acknowledged.partialOffset = try #require(Int(answer.headers["upload-offset"] ?? ""), "\(answer)")
            }
            acknowledged.partialBytes = Array(partial.prefix(acknowledged.partialOffset))
            #expect(acknowledged.partialOffset == 2 * PowerLossTests.chunk)

            let finished = Self.mp4Bytes(200_000, seed: 5)
            let id = try await create(length: finished.count)
            let answer = try await patch(id, offset: 0, finished)
            try #require(answer.status == 204, "the finishing PATCH: \(answer)")
            let job = try #require(answer.headers["reel-job"], "no Reel-Job header: \(answer)")
            acknowledged.job = String(job.dropFirst("/v1/jobs/".count))
            acknowledged.finishedBytes = finished

            // A session the server issued, as a page gets one; the events are stored under its id.
            let session = try await Curl.run(["-X", "POST", base + "/v1/sessions"])
            let grant = try JSONSerialization.jsonObject(with: Data(session.body.utf8)) as? [String: Any]
            let sessionToken = try #require(grant?["token"] as? String, "POST /v1/sessions: \(session)")
            acknowledged.eventSession = try #require(grant?["session"] as? String, "\(session)")
            acknowledged.eventCount = 20
            let batch = (0..<acknowledged.eventCount).map { index in
                "{\"type\":\"progress\",\"video\":\"v000000000\",\"position_s\":\(index),\"watched_s\":\(index)}"
            }
            let events = try await curl(
                [
                    "-X", "POST", "-H", "Content-Type: application/json", "-H", "Reel-Session: \(sessionToken)",
                    "--data-binary",
                    "@" + (try directory.write("events.json", text: "[" + batch.joined(separator: ",") + "]")),
                    base + "/v1/events",
                ])
            try #require(events.status == 204, "POST /v1/events: \(events)")
            return acknowledged
        }

        /// A tus creation; returns the upload's id.
        func create(length: Int) async throws -> String {
            let answer = try await curl([
                "-X", "POST", "-H", "Tus-Resumable: 1.0.0", "-H", "Upload-Length: \(length)",
                "-H", "Upload-Metadata: filename \(Data("clip.mp4".utf8).base64EncodedString())",
                "-H", "Authorization: Bearer \(token)", base + "/v1/uploads",
            ])
            try #require(answer.status == 201, "POST /v1/uploads: \(answer)")
            let location = try #require(answer.headers["location"], "\(answer)")
            return String(location.split(separator: "/").last ?? "")
        }

        func patch(_ id: String, offset: Int, _ bytes: [UInt8]) async throws -> Curl.Answer {
            let body = try directory.write("patch-\(id)-\(offset)", bytes)
            return try await curl([
                "-X", "PATCH", "-H", "Tus-Resumable: 1.0.0", "-H", "Upload-Offset: \(offset)",
                "-H", "Content-Type: application/offset+octet-stream", "-H", "Authorization: Bearer \(token)",
                "--data-binary", "@" + body, base + "/v1/uploads/" + id,
            ])
        }

        /// One request; its body is not needed.
        func curl(_ arguments: [String]) async throws -> Curl.Answer {
            try await Curl.run(["-o", "/dev/null"] + arguments)
        }

        /// `count` bytes that sniff as MP4: an `ftyp` box, then a pattern.
        static func mp4Bytes(_ count: Int, seed: UInt8) -> [UInt8] {
            let header: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
            return header + PatternBytes.make(count - header.count, seed: seed)
        }
    }
}
