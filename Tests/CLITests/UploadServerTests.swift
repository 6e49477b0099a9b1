import Catalog
import Foundation
import MediaFixtures
import MediaModel
import SQLiteCatalog
import Testing

/// `reel serve`'s uploads against clients Reel did not write (tuspy from PyPI, raw HTTP from Python), with the
/// worker running in the server: resumable uploads that end published, the gateway's refusals, hostile files, a
/// stalled client, and a hundred uploads at once.
@Suite(.timeLimit(.minutes(15))) struct UploadServerTests {
    /// A `reel serve --inbox` over a fresh library, with one upload token. `Rig.with` stops the server after the test.
    final class Rig {
        let directory: TemporaryDirectory
        let server: ChildProcess
        let base: String
        let token: String
        let store: SQLiteCatalogEngine

        /// A rig for `body`, its server stopped after it (SIGTERM, SIGKILL after 30 s) whether it returned or threw.
        static func with<T>(
            idleTimeout: Double = 30, extra: [String] = [], _ body: (Rig) async throws -> T
        ) async throws -> T {
            let rig = try await Rig(idleTimeout: idleTimeout, extra: extra)
            return try await withProcesses([rig.server]) { try await body(rig) }
        }

        private init(idleTimeout: Double, extra: [String]) async throws {
            directory = try TemporaryDirectory()
            let catalog = directory.file("catalog.sqlite")
            let created = try await ReelProcess.run(["token", "create", "--database", catalog, "--name", "tests"])
            guard created.status == 0 else { throw RigError(message: "reel token create: \(created.stderr)") }
            token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            // Opened before the server starts: opening a WAL catalog while another process is starting on it failed once
            // under heavy load with SQLITE_PROTOCOL (SQLite gave up retrying its WAL read lock).
            store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: catalog))
            try FileManager.default.createDirectory(atPath: directory.file("inbox"), withIntermediateDirectories: true)
            server = try ChildProcess(
                [
                    ReelProcess.executable, "serve", "--database", catalog, "--library", directory.file("library"),
                    "--inbox", directory.file("inbox"), "--settle", "0.3", "--poll-interval", "0.1", "--port", "0",
                    "--idle-timeout", String(idleTimeout),
                ] + extra)
            let server = self.server
            guard await listens(server, seconds: 30) else {
                throw RigError(message: "reel serve did not say it was listening within 30 s: \(server.stderr)")
            }
            base = server.stdout.split(separator: "\n").first.map { String($0.split(separator: " ").last ?? "") } ?? ""
        }

        func client(_ arguments: [String]) async throws -> [String: Any] {
            let run = try await ChildProcess.run(
                ["/usr/bin/timeout", "300", "python3", Self.script] + arguments, within: .seconds(330))
            guard let report = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] else {
                throw RigError(
                    message:
                        "upload_clients.py \(arguments.first ?? ""): status \(run.status)\n\(run.stdout)\n\(run.stderr)"
                )
            }
            return report
        }

        /// Waits up to `seconds` for the job to end, looking every 100 ms; returns it (the caller expects its state).
        func finishedJob(_ id: String, seconds: Double = 120) async throws -> FeedJob? {
            _ = try await ChildProcess.suspendUntil(seconds: seconds) {
                guard let job = try await store.job(id: id) else { return false }
                return [.published, .rejected, .failed].contains(job.state)
            }
            return try await store.job(id: id)
        }

        static var script: String {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Uploads/upload_clients.py").path
        }
    }

    struct RigError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    static func jobID(_ path: Any?) -> String? {
        (path as? String).map { String($0.dropFirst("/v1/jobs/".count)) }
    }

    @Test func tuspyUploadsInSmallChunksIsInterruptedResumesAndTheJobIsPublished() async throws {
        try await Rig.with { rig in
            let source = rig.directory.file("clip.mp4")
            try SyntheticVideo(width: 480, height: 270, seconds: 2).write(to: source)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: source)[.size] as? Int)
            let storage = rig.directory.file("tuspy-urls.json")
            let chunk = 16 * 1024
            // The first run stops after three chunks, as if the phone lost its network.
            let first = try await rig.client([
                "tuspy", "--url", rig.base, "--token", rig.token, "--file", source, "--storage", storage,
                "--chunk", String(chunk), "--stop-after", "3",
            ])
            #expect(first["error"] == nil, "\(first)")
            #expect(first["offset"] as? Int == 3 * chunk)
            // The second run finds the stored URL, asks the server for its offset and finishes from there.
            let second = try await rig.client([
                "tuspy", "--url", rig.base, "--token", rig.token, "--file", source, "--storage", storage,
                "--chunk", String(chunk),
            ])
            #expect(second["error"] == nil, "\(second)")
            #expect(second["url"] as? String == first["url"] as? String)
            #expect(second["startOffset"] as? Int == 3 * chunk)
            #expect(second["offset"] as? Int == size)

            let location = try #require(second["url"] as? String)
            let head = try await ChildProcess.run([
                "/usr/bin/curl", "-sI", "--max-time", "30", "-H", "Tus-Resumable: 1.0.0",
                "-H", "Authorization: Bearer \(rig.token)", location,
            ])
            let jobLine = try #require(
                head.stdout.split(separator: "\r\n").first { $0.lowercased().hasPrefix("reel-job:") }, "\(head.stdout)")
            let job = try #require(try await rig.finishedJob(String(jobLine.split(separator: "/").last ?? "")))
            #expect(job.state == .published, "\(job)")
            // The original moves to originals/ just after the publish commits (never before), so it may lag the state.
            let originalPath = rig.directory.file("library/originals/\(job.id)")
            let waited = await ChildProcess.suspendUntil(seconds: 30) {
                FileManager.default.fileExists(atPath: originalPath)
            }
            #expect(waited, "\(originalPath) never appeared within 30 s")
            let original = try Data(contentsOf: URL(fileURLWithPath: originalPath))
            #expect(
                original == (try Data(contentsOf: URL(fileURLWithPath: source))),
                "the published original is the uploaded file, byte for byte")
        }
    }

    @Test func tuspyGets401WithoutAToken401WithAWrongOneAnd413ForAnOversizedLength() async throws {
        try await Rig.with { rig in
            let small = try rig.directory.write("small.jpg", try SyntheticImage.jpeg(width: 64, height: 64))
            let huge = rig.directory.file("huge.mp4")
            #expect(FileManager.default.createFile(atPath: huge, contents: nil))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
            try handle.truncate(atOffset: 60_000_000)  // sparse: 60 MB declared, nothing stored
            try handle.close()
            let report = try await rig.client([
                "refusals", "--url", rig.base, "--token", rig.token, "--small", small, "--huge", huge,
            ])
            #expect((report["noToken"] as? [String: Any])?["status"] as? Int == 401, "\(report)")
            #expect((report["wrongToken"] as? [String: Any])?["status"] as? Int == 401, "\(report)")
            #expect((report["oversized"] as? [String: Any])?["status"] as? Int == 413, "\(report)")
            let raw = try #require(report["rawNoToken"] as? [String: Any])
            #expect(raw["wwwAuthenticate"] as? String == "Bearer realm=\"reel\"")
            #expect(((raw["body"] as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "unauthorized")
            #expect(try FileManager.default.contentsOfDirectory(atPath: rig.directory.file("library/.uploads")).isEmpty)
        }
    }

    @Test func hostileUploadsAreRefusedWithoutASingleLoopbackConnection() async throws {
        try await Rig.with { rig in
            let listener = try LoopbackListener()
            let playlist =
                "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nhttp://127.0.0.1:\(listener.port)/secret.ts\n#EXT-X-ENDLIST\n"
            let files = [
                try rig.directory.write("playlist.mp4", Array(playlist.utf8)),
                try rig.directory.write(
                    "drawing.svg",
                    Array(
                        "<svg xmlns=\"http://www.w3.org/2000/svg\"><image href=\"http://127.0.0.1:\(listener.port)/x\"/></svg>"
                            .utf8)),
                try rig.directory.write("bomb.png", SyntheticImage.pngBomb(width: 60_000, height: 60_000)),
            ]
            let report = try await rig.client(["concurrent", "--url", rig.base, "--token", rig.token] + files)
            let results = try #require(report["results"] as? [[String: Any]])
            let byName = Dictionary(
                uniqueKeysWithValues: results.map {
                    (URL(fileURLWithPath: $0["file"] as? String ?? "").lastPathComponent, $0)
                })
            for name in ["playlist.mp4", "drawing.svg"] {
                #expect(byName[name]?["status"] as? Int == 422, "\(byName[name] ?? [:])")
                #expect((byName[name]?["body"] as? String)?.contains("forbidden_format") == true)
            }
            // The PNG bomb is a PNG, so it uploads; admission then refuses its declared pixels without decoding them.
            let bomb = try #require(byName["bomb.png"])
            #expect(bomb["status"] as? Int == 201, "\(bomb)")
            let bombJob = try #require(Self.jobID(bomb["job"]))
            let job = try #require(try await rig.finishedJob(bombJob))
            #expect(job.state == .rejected)
            #expect(
                job.reason?.code == "pixel_count_exceeds_limit" || job.reason?.code == "dimensions_exceed_limit",
                "\(job)")
            #expect(listener.acceptedConnections() == 0)
        }
    }

    @Test func aStalledPatchDoesNotBlockOtherUploadsAndIsClosedByTheIdleTimeout() async throws {
        try await Rig.with(idleTimeout: 2) { rig in
            let source = rig.directory.file("clip.mp4")
            try SyntheticVideo(width: 320, height: 180, seconds: 1.5).write(to: source)
            let report = try await rig.client([
                "slowloris", "--url", rig.base, "--token", rig.token, "--file", source, "--idle-seconds", "2",
            ])
            let fast = try #require(report["fast"] as? [String: Any])
            #expect(fast["status"] as? Int == 201, "\(report)")
            #expect(fast["job"] != nil)
            #expect(
                report["slowClosedAfterSeconds"] is Double || report["slowClosedAfterSeconds"] is Int,
                "the server never closed it: \(report)")
            // The bytes that did arrive before the stall were kept: a client resumes from there.
            let head = try #require(report["slowHead"] as? [String: Any])
            #expect(head["status"] as? Int == 200)
            #expect(head["offset"] as? String == "1000", "\(head)")
        }
    }

    @Test func aHundredConcurrentUploadsAllCompleteAndArePublished() async throws {
        // One token opens a hundred uploads at once: over `reel serve`'s default quota (UploadQuotaCommandTests).
        let quota = ["--token-concurrent-uploads", "200", "--token-uploads-per-hour", "1000"]
        try await Rig.with(extra: ["--jobs", "2"] + quota) { rig in
            var files: [String] = []
            for index in 0..<100 {
                // Distinct pictures, so none is a duplicate of another.
                let photo = SyntheticPhoto(width: 96 + index, height: 64 + index % 7)
                files.append(try rig.directory.write("photo\(index).jpg", try photo.jpeg(quality: 80)))
            }
            let report = try await rig.client(["concurrent", "--url", rig.base, "--token", rig.token] + files)
            let results = try #require(report["results"] as? [[String: Any]])
            #expect(results.count == 100)
            let failures = results.filter { $0["status"] as? Int != 201 || $0["job"] == nil }
            #expect(failures.isEmpty, "\(failures.prefix(3))")
            let jobs = results.compactMap { Self.jobID($0["job"]) }
            var found: [FeedJob?] = []
            _ = try await ChildProcess.suspendUntil(seconds: 300) {
                found = []
                for id in jobs { found.append(try await rig.store.job(id: id)) }
                return found.allSatisfy { $0.map { [.published, .rejected, .failed].contains($0.state) } ?? false }
            }
            let unpublished = found.filter { $0?.state != .published }.map { job in
                job.map { "\($0.id) \($0.state) \(String(describing: $0.reason)) \($0.lastError ?? "")" } ?? "missing"
            }
            #expect(
                unpublished.isEmpty, "\(unpublished.count) of \(jobs.count) not published: \(unpublished.prefix(3))")
        }
    }
}
