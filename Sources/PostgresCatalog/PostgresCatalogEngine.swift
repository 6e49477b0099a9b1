package import Catalog
package import CatalogEventLoop
internal import Deadlines
package import Logging
internal import PostgresNIO
package import ServiceLifecycle

/// The catalog on PostgreSQL, for feed servers and workers on many hosts. It behaves as `SQLiteCatalogEngine` does,
/// statement for statement; what differs is concurrency (claims skip rows other transactions hold) and wake-ups
/// (`LISTEN reel_jobs` instead of polling). Its concerns live in extensions: the feed, jobs, publishing, tokens,
/// uploads and seeding.
///
/// It is a `Service`: nothing connects until `run()` runs, and every call waits for a pooled connection at most
/// `connectionWait` (5 s by default) before failing with `CatalogError.Kind.unavailable` (the pool itself would queue a request for a
/// minute while the server is down). The pool reconnects by itself when the server is back.
package final class PostgresCatalogEngine: CatalogRoles, CatalogSeeding, EventLoopFeedSource, Service {
    /// How long a call waits for a pooled connection before it gives up as unavailable: the connect timeout and a
    /// margin, so a server that is down fails calls quickly and a busy pool still serves them.
    let connectionWait: Duration
    /// The pause between attempts to open the `LISTEN` connection again.
    static let listenRetryDelay: Duration = .seconds(1)

    let location: PostgresLocation
    let logger: Logger
    let client: PostgresClient
    /// A pool of one: the connection that stays in `LISTEN reel_jobs`.
    let listener: PostgresClient
    let queuedJobs = QueuedJobSignal()
    /// The catalog generation as `NOTIFY reel_generation` announces it, while the `LISTEN` connection is up.
    let announcedGeneration = AnnouncedGeneration()
    /// The feed page's own connection on each HTTP event loop (`eventLoopFeed`).
    let pinned: PinnedFeedConnections

    /// A store for the catalog at `location`. It does not connect: `run()` does, and calls wait for it.
    /// - Parameter connections: the pool's upper bound, besides the one `LISTEN` connection.
    ///   - connectionWait: how long a call waits for a pooled connection before it fails as unavailable. Tests that run
    ///     beside heavy work give it longer; a server wants it short, so a client learns of an outage quickly.
    package init(
        location: PostgresLocation, connections: Int = 8, connectionWait: Duration = .seconds(5), logger: Logger
    ) {
        self.connectionWait = connectionWait
        self.location = location
        self.logger = logger
        client = PostgresEndpoint.client(location, connections: connections, logger: logger)
        listener = PostgresEndpoint.client(location, connections: 1, logger: logger)
        pinned = PinnedFeedConnections(location: location, logger: logger)
    }

    /// Runs the connection pool and the `LISTEN` connection until the task is cancelled (or graceful shutdown), then
    /// gives them `shutdownGrace` to close. Each runs in a task of its own that this never awaits past the grace: a
    /// pool child stuck on a statement PostgresNIO dropped (docs/quirks.md) cannot hold up a process's shutdown.
    package func run() async {
        let ended = OneShot<Void>()
        let parts = [
            Task {
                await self.client.run()
                ended.settle(.success(()))
            },
            Task {
                await self.listener.run()
                ended.settle(.success(()))
            },
            Task {
                await self.listenForQueuedJobs()
                ended.settle(.success(()))
            },
        ]
        await cancelWhenGracefulShutdown {
            _ = try? await ended.value()
        }
        for part in parts { part.cancel() }
        let closing = Task { await self.pinned.close() }
        let names = [
            "the connection pool", "the LISTEN connection's pool", "the LISTEN loop", "the feed's pinned connections",
        ]
        for (part, name) in zip(parts + [closing], names) where await value(of: part, upTo: Self.shutdownGrace) == nil {
            logger.warning(
                "left a catalog task behind at shutdown",
                metadata: [
                    "task": "\(name)", "catalog": "\(location)", "grace": "\(Self.shutdownGrace)",
                ])
        }
    }

    /// How long each part of the store has to stop once `run` is cancelled.
    static let shutdownGrace: Duration = .seconds(10)

    /// Applies `PostgresSchema`'s missing migrations (many processes may start at once: each applies once). A process
    /// that starts with (or just before) its database waits for it up to `seconds`, saying so in the log.
    /// - Throws: `CatalogError` when the server cannot be reached in time or a migration fails.
    package func migrate(waitingUpTo seconds: Double = 30) async throws(CatalogError) {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while true {
            do {
                _ = try await rows("reach the server to migrate the catalog", "SELECT 1")
                break
            } catch  where error.kind == .unavailable && ContinuousClock.now < deadline {
                logger.warning("waiting for the catalog's server", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
        do {
            try await PostgresMigrator().migrate(client, logger: logger)
        } catch {
            throw Self.classify(error, operation: "migrate the catalog at \(location)")
        }
    }

    /// The feed's event-loop fast path answers kept pages against the announced generation (no round trip); every
    /// other read needs the network, so the fast path hands it to the router.
    package var synchronousFeed: (any SynchronousFeed)? { announcedGeneration }

    /// Pages on a connection pinned to the asking event loop (`PinnedFeedConnections`): no thread hops.
    package var eventLoopFeed: (any EventLoopFeed)? { pinned }

    /// Returns true when a `reel_jobs` notification arrives (a job became claimable), false after `seconds`. While the
    /// server is unreachable no notification comes, so it returns false after `seconds`; it never throws.
    package func waitForQueuedJob(upTo seconds: Double) async -> Bool {
        await queuedJobs.wait(upTo: seconds)
    }

    /// Holds the `LISTEN` connection open, opening it again after the server went away: `reel_jobs` wakes waiting
    /// workers, `reel_generation` keeps `announcedGeneration`. Each time it starts listening it reads the generation
    /// and wakes the waiters (a job may have been queued, or a video published, while nobody listened); while it is
    /// down the generation is unknown, and the fast path asks the server.
    func listenForQueuedJobs() async {
        while !Task.isCancelled {
            do {
                try await withConnection("listen for queued jobs and new generations", on: listener) { connection in
                    try await connection.listen(on: "reel_jobs") { jobs in
                        try await connection.listen(on: "reel_generation") { generations in
                            try await self.follow(jobs: jobs, generations: generations, on: connection)
                        }
                    }
                }
            } catch {
                if !Task.isCancelled {
                    logger.debug("catalog LISTEN connection lost, retrying", metadata: ["error": "\(error)"])
                }
            }
            announcedGeneration.forget()
            try? await Task.sleep(for: Self.listenRetryDelay)
        }
    }

    private func follow(
        jobs: PostgresNotificationSequence, generations: PostgresNotificationSequence,
        on connection: PostgresConnection
    ) async throws {
        for try await value in try await connection.query(
            "SELECT value FROM catalog_generation WHERE id = 1", logger: logger
        )
        .decode(Int64.self) { announcedGeneration.advance(to: value) }
        queuedJobs.wakeAll()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await _ in jobs { self.queuedJobs.wakeAll() }
            }
            group.addTask {
                for try await notification in generations {
                    if let value = Int64(notification.payload) { self.announcedGeneration.advance(to: value) }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
