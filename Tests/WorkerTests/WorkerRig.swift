import Catalog
import FileSystem
import Foundation
import Logging
import MediaFixtures
import MediaStoreDirectory
import SQLiteCatalog
import Testing
import Worker

/// An inbox, a library and a catalog in a temporary directory, and a worker over them driven in-process with a
/// scripted job launcher.
struct WorkerRig {
    let directory: TemporaryDirectory
    let root: String
    var inbox: String { root + "/inbox" }
    var library: String { root + "/library" }
    /// The library directory as the worker sees it; it is also the worker's (shared) scratch directory.
    let libraryStore: DirectoryMediaStore
    let store: SQLiteCatalogEngine

    /// `root` defaults to the temporary directory; a test on a small file system passes its mount point.
    init(root: String? = nil, busyTimeout: Double = 5) throws {
        directory = try TemporaryDirectory()
        self.root = root ?? directory.path
        try Directory.create(self.root + "/inbox")
        try Directory.create(self.root + "/library")
        libraryStore = try DirectoryMediaStore(root: self.root + "/library")
        store = SQLiteCatalogEngine(
            database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite"), busyTimeout: busyTimeout))
    }

    /// Another host beside `other`: an inbox and a library (or scratch space) of its own, the same catalog.
    init(sharingCatalogOf other: WorkerRig, root: String? = nil) throws {
        directory = try TemporaryDirectory()
        self.root = root ?? directory.path
        try Directory.create(self.root + "/inbox")
        try Directory.create(self.root + "/library")
        libraryStore = try DirectoryMediaStore(root: self.root + "/library")
        store = other.store
    }

    func configuration(
        _ launcher: ScriptedJobLauncher, _ change: (inout WorkerConfiguration) -> Void = { _ in }
    ) -> WorkerConfiguration {
        var configuration = WorkerConfiguration(
            inbox: inbox, scratch: library, library: libraryStore, scratchIsShared: true)
        configuration.settleSeconds = 0
        configuration.pollInterval = 0.02
        configuration.once = true
        configuration.launcher = launcher
        configuration.backoff = Backoff(baseSeconds: 0.05, maximumSeconds: 1)
        configuration.minimumFreeBytes = 0
        configuration.diskFullRetrySeconds = 0.2
        change(&configuration)
        return configuration
    }

    func makeWorker(_ configuration: WorkerConfiguration) throws -> Worker {
        var logger = Logger(label: "reel.worker.test")
        logger.logLevel = ProcessInfo.processInfo.environment["REEL_TEST_LOG"] == nil ? .critical : .debug
        return try Worker(configuration: configuration, store: store, logger: logger)
    }

    /// Runs the worker until it is idle (or `seconds` pass, which fails the test). The bound only catches a hang:
    /// 60 s failed a crash-retrying job's test on a 2-core machine running two test suites at once.
    func runUntilIdle(_ worker: Worker, seconds: Double = 300) async throws {
        let watchdog = Task {
            try await Task.sleep(for: .seconds(seconds))
            Issue.record("the worker did not finish within \(seconds) s")
            worker.requestStop()
        }
        try await worker.run()
        watchdog.cancel()
    }

    @discardableResult
    func drop(_ name: String, _ bytes: [UInt8] = Array("upload \(UUID())".utf8)) throws -> String {
        let temporary = inbox + "/.uploading-" + UUID().uuidString
        try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        try Directory.move(temporary, to: inbox + "/" + name)
        return inbox + "/" + name
    }

    func jobs() async throws -> [FeedJob] {
        var jobs: [FeedJob] = []
        for state in FeedJob.State.allCases { jobs += try await store.jobs(state: state) }
        return jobs
    }

    func entries(_ relative: String) -> [String] {
        ((try? Directory.entries(of: library + "/" + relative)) ?? []).map { String(decoding: $0.name, as: UTF8.self) }
            .sorted()
    }

    func reason(_ id: String, in folder: String) throws -> [String: Any] {
        let bytes = try ReadOnlyFile.contents(of: library + "/\(folder)/\(id).reason.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }
}
