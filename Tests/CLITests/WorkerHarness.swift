import Catalog
import Deadlines
import Foundation
import GRDB
import MediaFixtures
import MediaModel
import SQLiteCatalog
import Testing

/// An inbox, a library and a catalog in a temporary directory, with helpers to run real `reel worker` and
/// `reel serve --inbox` processes over them and to inspect the result.
struct WorkerHarness {
    let directory: TemporaryDirectory
    var inbox: String { directory.file("inbox") }
    var library: String { directory.file("library") }
    var database: String { directory.file("catalog.sqlite") }
    let store: SQLiteCatalogEngine

    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("inbox"), withIntermediateDirectories: true)
        store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
    }

    /// Fast settings for tests: files settle after 0.3 s, scans every 0.1 s.
    func workerArguments(_ extra: [String] = []) -> [String] {
        ["--inbox", inbox, "--library", library, "--database", database, "--settle", "0.3", "--poll-interval", "0.1"]
            + extra
    }

    func startWorker(_ extra: [String] = [], environment: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(
            [ReelProcess.executable, "worker", "--json"] + workerArguments(extra), environment: environment)
    }

    /// Runs `reel worker --once` to the end, suspending meanwhile; past `limit` it throws `DeadlineExceeded` naming
    /// the command (and the worker is killed).
    func runOnce(
        _ extra: [String] = [], environment: [String: String] = [:],
        within limit: Duration = .seconds(600)
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(
            [ReelProcess.executable, "worker", "--once", "--json"] + workerArguments(extra),
            environment: environment, within: limit)
    }

    /// Writes a file into the inbox through a dotfile and a rename, as a careful uploader would.
    @discardableResult
    func drop(_ name: String, _ bytes: [UInt8]) throws -> String {
        let temporary = inbox + "/.uploading-" + UUID().uuidString
        try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        let path = inbox + "/" + name
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return path
    }

    /// Encodes a clip and drops it. The encode (seconds of CPU at 720p) runs on a thread of its own: on one of the
    /// concurrency pool's two threads it would hold up every other test's wake-ups meanwhile.
    func dropVideo(_ name: String, width: Int = 320, height: Int = 180, seconds: Double = 1.5) async throws {
        let source = directory.file("src-" + UUID().uuidString + ".mp4")
        try await onOwnThread("encodes \(width)x\(height) \(seconds) s for \(name)") {
            try SyntheticVideo(width: width, height: height, seconds: seconds).write(to: source)
        }
        try drop(name, Array(try Data(contentsOf: URL(fileURLWithPath: source))))
    }

    /// Each job's state and progress through GRDB's synchronous access: for the watches that must keep pace with a
    /// child process and so run on a thread of their own (`onOwnThread`), never on the concurrency pool.
    func jobStatesBlocking() throws -> [(state: FeedJob.State?, progress: Double)] {
        try store.database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT state, progress FROM jobs ORDER BY id").map {
                (FeedJob.State(rawValue: $0["state"] ?? ""), $0["progress"] ?? 0)
            }
        }
    }

    func jobs() async throws -> [FeedJob] {
        var jobs: [FeedJob] = []
        for state in FeedJob.State.allCases { jobs += try await store.jobs(state: state) }
        return jobs
    }

    /// The jobs once `count` of them have ended (or `seconds` have passed: the caller's expectations then say which
    /// have not), looking every 100 ms without holding a thread of the concurrency pool.
    func waitForJobs(count: Int, seconds: Double = 120) async throws -> [FeedJob] {
        _ = try await ChildProcess.suspendUntil(seconds: seconds) {
            let finished = try await jobs().filter { [.published, .rejected, .failed].contains($0.state) }
            return finished.count >= count
        }
        return try await jobs()
    }

    func entries(_ relative: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: library + "/" + relative)) ?? []).sorted()
    }

    func reason(_ id: String, in folder: String = "rejected") throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: library + "/\(folder)/\(id).reason.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Every published video has its master playlist, every variant playlist, and every init and media segment
    /// those playlists name.
    func checkPublishedVideosAreComplete() async throws {
        for entry in try await store.page(limit: 50, after: nil).items {
            let item = try #require(try await store.video(id: entry.id))
            let master = library + "/" + (item.masterPath ?? "")
            let text = try String(contentsOfFile: master, encoding: .utf8)
            let variants = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
            #expect(!variants.isEmpty, "\(item.id) has no variants")
            for variant in variants {
                let playlist = (master as NSString).deletingLastPathComponent + "/" + variant
                let lines = try String(contentsOfFile: playlist, encoding: .utf8).split(separator: "\n")
                var files = lines.filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
                for line in lines where line.hasPrefix("#EXT-X-MAP:URI=\"") {
                    files.append(String(line.dropFirst("#EXT-X-MAP:URI=\"".count).prefix { $0 != "\"" }))
                }
                #expect(files.count >= 2)
                for file in files {
                    let path = (playlist as NSString).deletingLastPathComponent + "/" + file
                    #expect(FileManager.default.fileExists(atPath: path), "\(item.id): \(file) is missing")
                }
            }
            try checkPrefetchHints(entry: entry, master: master)
            for poster in [item.posterJPEGPath, item.posterWebPPath] {
                #expect(
                    FileManager.default.fileExists(atPath: library + "/" + (poster ?? "")), "\(item.id): poster missing"
                )
            }
            let storyboard = try #require(item.storyboard, "\(item.id) has no storyboard")
            for file in [storyboard.vttPath, storyboard.imagePath] {
                #expect(FileManager.default.fileExists(atPath: library + "/" + file), "\(item.id): \(file) missing")
            }
        }
    }

    /// The feed item's prefetch hints are the real sizes on disk: each rendition's init segment, and the first
    /// segments (as many as cover 3 s) with their playlist durations.
    func checkPrefetchHints(entry: FeedItem, master: String) throws {
        let renditions = try entry.video().renditions
        #expect(!renditions.isEmpty)
        let folder = (master as NSString).deletingLastPathComponent
        for rendition in renditions {
            let rung = rendition.rung
            let hint = try #require(rendition.prefetch, "\(entry.id) \(rung) has no prefetch hint")
            let size = { (name: String) throws -> Int in
                try #require(
                    try FileManager.default.attributesOfItem(atPath: "\(folder)/\(rung)/\(name)")[.size] as? Int)
            }
            #expect(hint.initBytes == (try size("init.mp4")))
            let playlist = try String(contentsOfFile: "\(folder)/\(rung)/index.m3u8", encoding: .utf8).split(
                separator: "\n")
            let durations = playlist.filter { $0.hasPrefix("#EXTINF:") }.map {
                Double($0.dropFirst(8).prefix { $0 != "," }) ?? -1
            }
            let names = playlist.filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
            let first = hint.firstSegments
            var covered = 0.0
            for (index, segment) in first.enumerated() {
                #expect(segment.bytes == (try size(names[index])), "\(entry.id) \(rung) segment \(index)")
                let duration = Double(segment.durationMilliseconds) / 1000
                #expect(abs(duration - durations[index]) < 0.0015)
                covered += duration
            }
            // Enough to cover the 3 s window, and not one segment more.
            #expect(covered >= 3 || first.count == names.count)
            #expect(covered - Double(first.last?.durationMilliseconds ?? 0) / 1000 < 3)
        }
    }

    func jsonLines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
