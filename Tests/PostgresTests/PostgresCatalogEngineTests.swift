import Catalog
import Foundation
import Logging
import MediaModel
import PostgresCatalog
import PostgresNIO
import TestServers
import Testing

/// The PostgreSQL engine against a real server: the feed and its generation, duplicates, claims under concurrency,
/// fenced leases, `LISTEN` wake-ups, and a server that goes away and comes back. Each test has its own server and
/// database. No test measures time: waits are bounded by counts, and hangs by the test's time limit.
@Suite(.timeLimit(.minutes(5))) struct PostgresCatalogEngineTests {
    static let logger = Logger(label: "reel.test.postgres-store")

    static func location(_ server: PostgresTestServer, database: String) -> PostgresLocation {
        PostgresLocation(host: server.host, port: server.port, user: PostgresTestServer.user, database: database)
    }

    /// A migrated store on a database of its own (created unless `create` is false), running until `body` returns.
    /// - Parameter connectionWait: patient by default: in the full test run, blocking tests can hold the concurrency
    ///   pool (which runs the connection pool) for minutes. The outage test passes the production 5 s.
    static func withStore<T: Sendable>(
        _ server: PostgresTestServer, database: String, create: Bool = true, connections: Int = 8,
        connectionWait: Duration = .seconds(300),
        _ body: @Sendable (PostgresCatalogEngine) async throws -> T
    ) async throws -> T {
        if create { try await server.createDatabase(database) }
        let store = PostgresCatalogEngine(
            location: location(server, database: database), connections: connections,
            connectionWait: connectionWait, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            defer { group.cancelAll() }
            try await store.migrate(waitingUpTo: 300)
            return try await body(store)
        }
    }

    static func video(_ id: String, at time: Int64, hash: String? = nil) -> PublishedVideo {
        PublishedVideo(
            id: id, createdAt: time, publishedAt: time, durationMilliseconds: 15_000, width: 1080, height: 1920,
            contentHash: hash ?? "hash-\(id)", source: nil, masterPath: "videos/\(id)/master.m3u8",
            posterJPEGPath: "videos/\(id)/poster.jpg", posterWebPPath: "videos/\(id)/poster.webp",
            renditions: [
                FeedVideo.Rendition(
                    rung: "720p30", width: 720, height: 1280, bandwidth: 1_600_000, averageBandwidth: 1_400_000,
                    codecs: "avc1.64001f,mp4a.40.2", segments: 4,
                    prefetch: PrefetchHint(
                        initBytes: 900, segmentDurationMilliseconds: 2000,
                        firstSegments: [
                            .init(durationMilliseconds: 2000, bytes: 300_000),
                            .init(durationMilliseconds: 1000, bytes: 120_000),
                        ])),
                FeedVideo.Rendition(
                    rung: "360p30", width: 360, height: 640, bandwidth: 600_000, averageBandwidth: 500_000,
                    codecs: "avc1.64001e,mp4a.40.2", segments: 4),
            ],
            storyboard: Storyboard(
                vttPath: "videos/\(id)/storyboard.vtt", imagePath: "videos/\(id)/storyboard.webp",
                intervalSeconds: 2, tileWidth: 160, tileHeight: 284, columns: 5, count: 8))
    }

    /// A queued job nobody holds, made the way intake makes one: inserted held, then released.
    static func queueJob(_ store: PostgresCatalogEngine, id: String, now: Int64) async throws {
        try await store.insertJob(
            id: id, sourceName: Array("upload \(id).mp4".utf8) + [0xFF], bytes: 1000, owner: "intake",
            now: now, leaseMilliseconds: 60_000)
        try await store.release(JobLease(id: id, epoch: 0, owner: "intake"), now: now)
    }

    @Test func publishedVideosPageNewestFirstWithACursorAndOneGenerationPerPublish() async throws {
        let server = try await PostgresTestServer()
        try await Self.withStore(server, database: "feed") { store in
            let empty = try await store.pageWithGeneration(limit: 10, after: nil)
            #expect(empty.page.items.isEmpty && empty.page.next == nil)
            #expect(try await store.generation() == empty.generation)

            // Two videos share a time: the id orders them, bytewise ("b" after "B").
            for video in [Self.video("a", at: 1000), Self.video("B", at: 2000), Self.video("b", at: 2000)] {
                let before = try await store.generation()
                try await store.publish(video)
                #expect(try await store.generation() == before + 1, "one bump per publishing transaction")
            }
            let first = try await store.pageWithGeneration(limit: 2, after: nil)
            #expect(first.page.items.map(\.id) == ["b", "B"])
            #expect(first.generation == (try await store.generation()))
            let cursor = try #require(first.page.next)
            #expect(cursor == FeedPosition(publishedAt: 2000, id: "B"))
            let second = try await store.pageWithGeneration(limit: 2, after: cursor).page
            #expect(second.items.map(\.id) == ["a"])
            #expect(second.next == nil)

            // What was published reads back, and its stored record holds the same facts.
            let video = try #require(try await store.video(id: "a"))
            #expect(video.renditions.map(\.rung) == ["360p30", "720p30"])
            #expect(video.renditions[1].prefetch == Self.video("a", at: 1000).renditions[0].prefetch)
            #expect(video.storyboard == Self.video("a", at: 1000).storyboard)
            #expect(try second.items[0].video() == video)
            #expect(second.items[0].record == FeedVideoRecord.encode(video))
            #expect(try await store.item(id: "a")?.video() == video)
            #expect(try await store.publishedVideos().map(\.id) == ["b", "B", "a"])
            #expect(try await store.videoCount() == 3)
            #expect(try await store.item(id: "nope") == nil)
            try await store.ping()
        }
        // A record cleared by an edit outside Reel is encoded again from the row's columns.
        try await PostgresTestServerTests.withClient(server, database: "feed") { client in
            try await client.query("UPDATE videos SET width = 720 WHERE id = 'a'")
        }
        try await Self.withStore(server, database: "feed", create: false) { store in
            let item = try #require(try await store.item(id: "a"))
            let video = try #require(try await store.video(id: "a"))
            #expect(video.width == 720)
            #expect(try item.video() == video)
            #expect(
                try await store.pageWithGeneration(limit: 5, after: FeedPosition(publishedAt: 2000, id: "B")).page.items
                    .first?.record == item.record)
        }
    }

    @Test func aSecondVideoWithTheSameBytesIsADuplicate() async throws {
        let server = try await PostgresTestServer()
        try await Self.withStore(server, database: "duplicates") { store in
            try await store.publish(Self.video("first", at: 1000, hash: "same"))
            let generation = try await store.generation()
            let error = await #expect(throws: CatalogError.self) {
                try await store.publish(Self.video("second", at: 2000, hash: "same"))
            }
            #expect(error?.kind == .duplicate)
            #expect(error?.message.contains("publish video second") == true, "\(String(describing: error))")
            #expect(try await store.video(id: "second") == nil)
            #expect(try await store.generation() == generation, "a refused publish changes nothing")
            #expect(try await store.publishedMedia(contentHash: "same") == PublishedMedia(kind: .video, id: "first"))
        }
    }

    @Test func aLeaseTakenOverCanNeitherRequeueNorPublish() async throws {
        let server = try await PostgresTestServer()
        try await Self.withStore(server, database: "fencing") { store in
            try await Self.queueJob(store, id: "j1", now: 1)
            let claim = try #require(try await store.claimNextJob(owner: "A", now: 10, leaseMilliseconds: 1000))
            #expect(claim.epoch == 1)

            // Another holder's lease changes nothing.
            let wrong = await #expect(throws: CatalogError.self) {
                try await store.requeue(
                    JobLease(id: "j1", epoch: 1, owner: "B"), notBefore: 0, failure: nil, refundAttempt: false, now: 20)
            }
            #expect(wrong?.kind == .leaseLost)
            #expect(wrong?.message.contains("processing at epoch 1, held by A") == true, "\(String(describing: wrong))")
            #expect(try await store.job(id: "j1")?.owner == "A")

            // The holder's own lease requeues it (as recovery does for an expired lease), and B claims it again.
            try await store.requeue(claim.lease, notBefore: 0, failure: nil, refundAttempt: true, now: 30)
            let takeover = try #require(try await store.claimNextJob(owner: "B", now: 40, leaseMilliseconds: 1000))
            #expect(takeover.id == "j1" && takeover.epoch == 2 && takeover.owner == "B")

            // A's old lease can no longer publish: refused before the video is inserted.
            let refused = await #expect(throws: CatalogError.self) {
                try await store.publish(Self.video("v1", at: 50), lease: claim.lease, now: 50)
            }
            #expect(refused?.kind == .leaseLost)
            #expect(refused?.message.contains("epoch 2, held by B") == true, "\(String(describing: refused))")
            #expect(try await store.video(id: "v1") == nil)
            #expect(try await store.isPublished(mediaID: "v1") == false)
            #expect(try await store.job(id: "j1")?.state == .processing)

            // B's lease publishes.
            try await store.publish(Self.video("v1", at: 60), lease: takeover.lease, now: 60)
            let published = try #require(try await store.job(id: "j1"))
            #expect(
                published.state == .published && published.mediaID == "v1" && published.owner == nil
                    && published.progress == 1)
            #expect(try await store.isPublished(mediaID: "v1"))
        }
    }

    @Test func renewingALeaseAfterATakeoverReturnsFalse() async throws {
        let server = try await PostgresTestServer()
        try await Self.withStore(server, database: "renewal") { store in
            try await Self.queueJob(store, id: "j1", now: 1)
            let first = try #require(try await store.claimNextJob(owner: "A", now: 10, leaseMilliseconds: 1000))
            #expect(try await store.renewLease(first.lease, until: 5000, now: 20))
            #expect(try await store.job(id: "j1")?.leaseExpiresAt == 5000)

            // The lease expired; recovery requeues the job under the lease it finds, and B claims it.
            let held = try #require(try await store.jobsHeld().first)
            try await store.requeue(held.lease, notBefore: 0, failure: nil, refundAttempt: true, now: 6000)
            let second = try #require(try await store.claimNextJob(owner: "B", now: 6001, leaseMilliseconds: 1000))
            #expect(second.epoch == 2)
            #expect(try await store.renewLease(first.lease, until: 9000, now: 6002) == false)
            #expect(try await store.renewLease(second.lease, until: 9000, now: 6002))
            #expect(try await store.job(id: "j1")?.leaseExpiresAt == 9000)
        }
    }

    /// Queues jobs from another connection until `waiter` returns, and returns how many it queued (31: never woke).
    /// The waiter may register after a notification, so one job is not enough; the count bounds the loop, and the
    /// suite's time limit a waiter that never wakes (its own timeout is far longer).
    static func queueJobsUntilWoken(
        _ server: PostgresTestServer, database: String, prefix: String,
        _ waiter: Task<Void, Never>
    ) async throws -> Int {
        try await PostgresTestServerTests.withClient(server, database: database) { client in
            for n in 1...30 {
                try await client.query(
                    """
                    INSERT INTO jobs (id, kind, source_name, state, created_at, updated_at)
                    VALUES (\("\(prefix)\(n)"), 'unknown', ''::bytea, 'queued', 1, 1)
                    """)
                let woke = await withTaskGroup(of: Bool.self) { group in
                    group.addTask {
                        await waiter.value
                        return true
                    }
                    group.addTask {
                        try? await Task.sleep(for: .seconds(1))
                        return false
                    }
                    defer { group.cancelAll() }
                    return await group.next() ?? false
                }
                if woke { return n }
            }
            return 31
        }
    }

    @Test func aWaitingWorkerWakesWhenAnotherConnectionQueuesAJob() async throws {
        let server = try await PostgresTestServer()
        try await Self.withStore(server, database: "wakeups") { store in
            let waiter = Task {
                #expect(await store.waitForQueuedJob(upTo: 600), "woken by a notification, not the timeout")
            }
            let queued = try await Self.queueJobsUntilWoken(server, database: "wakeups", prefix: "external", waiter)
            await waiter.value
            #expect(queued <= 30, "the waiter woke on a notification, not at the end of the loop")
            let job = try #require(try await store.claimNextJob(owner: "A", now: 10, leaseMilliseconds: 1000))
            #expect(job.id.hasPrefix("external"))
        }
    }

    @Test func theFeedPageSeeksThroughTheFeedIndex() async throws {
        let server = try await PostgresTestServer()
        try await Self.withStore(server, database: "plan") { store in
            try await store.seed(count: 500, startingAt: 0, batch: 250)
            #expect(try await store.videoCount() == 500)
            try await PostgresTestServerTests.withClient(server, database: "plan") { client in
                try await client.query("ANALYZE videos")
            }
            // The page's rows come in index order, ids compared as the index has them (COLLATE "C"): no sort of the
            // table (the outer sort orders only the page's few joined rows).
            let plan = try await store.pagePlan()
            #expect(plan.contains { $0.contains("Index Scan using videos_feed on videos") }, "\(plan)")
        }
    }

    @Test func aRowLockedPastTheLockTimeoutIsBusy() async throws {
        let server = try await PostgresTestServer()
        try await server.createDatabase("locks")
        try await PostgresTestServerTests.withClient(server, database: "postgres") { client in
            try await client.query("ALTER DATABASE locks SET lock_timeout = '200ms'")
        }
        try await Self.withStore(server, database: "locks", create: false) { store in
            try await Self.queueJob(store, id: "j1", now: 1)
            let claim = try #require(try await store.claimNextJob(owner: "A", now: 10, leaseMilliseconds: 1000))
            try await PostgresTestServerTests.withClient(server, database: "locks") { client in
                try await client.withTransaction(logger: Self.logger) { connection in
                    try await connection.query("SELECT id FROM jobs WHERE id = 'j1' FOR UPDATE", logger: Self.logger)
                    let busy = await #expect(throws: CatalogError.self) {
                        try await store.renewLease(claim.lease, until: 5000, now: 20)
                    }
                    #expect(busy?.kind == .busy, "\(String(describing: busy))")
                    #expect(busy?.message.contains("renew the lease of job j1") == true)
                    #expect(busy?.isTransient == true)
                }
            }
            #expect(try await store.renewLease(claim.lease, until: 5000, now: 30), "free again once the lock is gone")
        }
    }

    @Test func aStoppedServerFailsCallsAsUnavailableAndTheSameStoreRecovers() async throws {
        let server = try await PostgresTestServer()
        try await Self.withStore(server, database: "outage", connectionWait: .seconds(5)) { store in
            try await store.publish(Self.video("before", at: 1000))
            await server.stop()

            let down = await #expect(throws: CatalogError.self) { try await store.generation() }
            #expect(down?.kind == .unavailable, "\(String(describing: down))")
            #expect(down?.message.contains("read the catalog generation") == true)
            let publishDown = await #expect(throws: CatalogError.self) {
                try await store.publish(Self.video("during", at: 2000))
            }
            #expect(publishDown?.kind == .unavailable)
            // returns (never throws) while nothing can notify
            #expect(await store.waitForQueuedJob(upTo: 0.5) == false)

            try await server.start()
            // The pool reconnects on its own, after its backoff: retry a bounded number of times.
            var generation: Int64?
            for _ in 0..<60 where generation == nil {
                do {
                    generation = try await store.generation()
                } catch {
                    #expect((error as? CatalogError)?.kind == .unavailable, "\(error)")
                    try await Task.sleep(for: .seconds(1))
                }
            }
            #expect(generation != nil, "the store reconnected")
            try await store.publish(Self.video("after", at: 3000))
            #expect(
                try await store.pageWithGeneration(limit: 10, after: nil).page.items.map(\.id) == ["after", "before"])

            // The LISTEN connection came back too.
            let waiter = Task {
                #expect(await store.waitForQueuedJob(upTo: 600), "woken by a notification, not the timeout")
            }
            let queued = try await Self.queueJobsUntilWoken(server, database: "outage", prefix: "after-outage", waiter)
            await waiter.value
            #expect(queued <= 30, "the waiter woke on a notification after the restart")
        }
    }
}
