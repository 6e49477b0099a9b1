import Catalog
import CatalogEventLoop
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresCatalog
import PostgresNIO
import TestServers
import Testing

/// The feed's pages on connections pinned to event loops (`PostgresCatalogEngine.eventLoopFeed`), against a real server:
/// the same pages as the pool's, completed on the asking loop, one connection per loop, a fallback for items that need
/// rendering, and recovery after the server dropped the connection or went away.
@Suite(.timeLimit(.minutes(5))) struct PinnedFeedConnectionsTests {
    static let pinnedName = "reel feed (pinned)"

    /// Every page of the feed, `limit` at a time, read through `read`.
    static func walk(limit: Int, _ read: (FeedPosition?) async throws -> GeneratedPage) async throws -> [GeneratedPage]
    {
        var pages: [GeneratedPage] = []
        var cursor: FeedPosition?
        repeat {
            let page = try await read(cursor)
            pages.append(page)
            cursor = page.page.next
        } while cursor != nil && pages.count < 1000
        return pages
    }

    /// A page through `feed` on `loop`, checking the future completes on that loop.
    static func page(
        _ feed: any EventLoopFeed, limit: Int, after cursor: FeedPosition?, on loop: any EventLoop
    ) async throws -> GeneratedPage {
        try await feed.page(limit: limit, after: cursor, on: loop).map { page in
            #expect(loop.inEventLoop, "the page completes on the loop that asked")
            return page
        }.get()
    }

    static func pinnedConnections(_ server: PostgresTestServer, database: String) async throws -> Int {
        try await PostgresTestServerTests.withClient(server, database: "postgres") { client in
            let rows = try await client.query(
                """
                SELECT count(*) FROM pg_stat_activity WHERE datname = \(database) AND application_name = \(pinnedName)
                """)
            var count = 0
            for try await value in rows.decode(Int.self) { count = value }
            return count
        }
    }

    /// The pinned backends as pg_stat_activity shows them: pid, state, when it started and last changed, client port.
    static func pinnedBackends(_ server: PostgresTestServer) async throws -> [String] {
        try await PostgresTestServerTests.withClient(server, database: "postgres") { client in
            let rows = try await client.query(
                """
                SELECT concat_ws(' ', pid, state, backend_start, state_change, client_port, wait_event)
                FROM pg_stat_activity WHERE application_name = \(pinnedName)
                """)
            var lines: [String] = []
            for try await line in rows.decode(String.self) { lines.append(line) }
            return lines
        }
    }

    @Test func pagesOnEventLoopsAreThePoolsPagesOnOneConnectionPerLoop() async throws {
        let server = try await PostgresTestServer()
        try await Self.withLoops(2) { loops in
            try await PostgresCatalogEngineTests.withStore(server, database: "pinned") { store in
                for index in 0..<23 {
                    try await store.publish(
                        PostgresCatalogEngineTests.video(String(format: "v%02d", index), at: 1000 + Int64(index / 2)))
                }
                let feed = try #require(store.eventLoopFeed)
                let expected = try await Self.walk(limit: 5) { cursor in
                    let read = try await store.pageWithGeneration(limit: 5, after: cursor)
                    return GeneratedPage(page: read.page, generation: read.generation)
                }
                #expect(expected.count == 5 && expected.flatMap(\.page.items).count == 23)
                for (index, loop) in loops.enumerated() {
                    let pages = try await Self.walk(limit: 5) { cursor in
                        try await Self.page(feed, limit: 5, after: cursor, on: loop)
                    }
                    #expect(pages.map(\.page) == expected.map(\.page), "loop \(index)")
                    #expect(pages.map(\.generation) == expected.map(\.generation), "loop \(index)")
                }
                #expect(
                    try await Self.pinnedConnections(server, database: "pinned") == 2,
                    "opened as needed: sequential pages use one per loop")

                // A publish is seen by the next page, with its generation.
                try await store.publish(PostgresCatalogEngineTests.video("newest", at: 9000))
                let fresh = try await Self.page(feed, limit: 3, after: nil, on: loops[0])
                #expect(fresh.page.items.first?.id == "newest")
                #expect(fresh.generation == (try await store.generation()))

                // Asked from off the loop, the page still completes on it.
                let offLoop = try await feed.page(limit: 50, after: nil, on: loops[1]).map {
                    ($0, loops[1].inEventLoop)
                }.get()
                #expect(offLoop.1 && offLoop.0.page.items.count == 24 && offLoop.0.page.next == nil)
            }
        }
        // The server ends a backend just after its client closed: look until they are gone (bounded). What the last
        // look saw goes into the failure: twice in full runs this did not reach 0 within its bound.
        var lastLook = "nothing"
        let stopped = ContinuousClock.now
        let left = try await Self.eventually { () async throws -> Int in
            do {
                let count = try await Self.pinnedConnections(server, database: "pinned")
                guard count == 0 else {
                    lastLook = "\(count) open: \(try await Self.pinnedBackends(server))"
                    throw CatalogError(.other, lastLook)
                }
                return count
            } catch let error as CatalogError {
                throw error
            } catch {
                lastLook = "the look failed: \(error)"
                throw error
            }
        }
        #expect(
            left == 0,
            "the store closed its pinned connections when it stopped; after \(ContinuousClock.now - stopped) the last look saw \(lastLook)"
        )
    }

    @Test func aRecordThatNeedsEncodingFailsThePinnedPathAndThePoolEncodesIt() async throws {
        let server = try await PostgresTestServer()
        try await Self.withLoops(1) { loops in
            try await PostgresCatalogEngineTests.withStore(server, database: "render") { store in
                try await store.publish(PostgresCatalogEngineTests.video("a", at: 1000))
                try await store.publish(PostgresCatalogEngineTests.video("b", at: 2000))
                try await PostgresTestServerTests.withClient(server, database: "render") { client in
                    try await client.query("UPDATE videos SET item_record = NULL WHERE id = 'a'")
                }
                let feed = try #require(store.eventLoopFeed)
                let failure = await #expect(throws: CatalogError.self) {
                    try await feed.page(limit: 10, after: nil, on: loops[0]).get()
                }
                #expect(failure?.message.contains("needs encoding again") == true, "\(String(describing: failure))")
                let rendered = try await store.pageWithGeneration(limit: 10, after: nil).page
                #expect(rendered.items.map(\.id) == ["b", "a"])
                #expect(try await store.video(id: "a") == rendered.items[1].video())
            }
        }
    }

    @Test func aDroppedConnectionOrAStoppedServerIsReopenedWithoutHanging() async throws {
        let server = try await PostgresTestServer()
        try await Self.withLoops(1) { loops in
            try await PostgresCatalogEngineTests.withStore(server, database: "drop", connectionWait: .seconds(5)) {
                store in
                let loop = loops[0]
                try await store.publish(PostgresCatalogEngineTests.video("a", at: 1000))
                let feed = try #require(store.eventLoopFeed)
                #expect(try await Self.page(feed, limit: 10, after: nil, on: loop).page.items.map(\.id) == ["a"])

                // The server ends the connection: the next pages open a new one (a page in flight may fail; bounded retries).
                try await PostgresTestServerTests.withClient(server, database: "postgres") { client in
                    try await client.query(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(Self.pinnedName)"
                    )
                }
                let idsAfterTermination = try await Self.eventually {
                    try await Self.page(feed, limit: 10, after: nil, on: loop)
                }?.page.items.map(\.id)
                #expect(idsAfterTermination == ["a"])

                // The server stops: pages fail (they do not wait), then succeed again once it is back.
                await server.stop()
                await #expect(throws: (any Error).self) { try await feed.page(limit: 10, after: nil, on: loop).get() }
                try await server.start()
                let idsAfterRestart = try await Self.eventually {
                    try await Self.page(feed, limit: 10, after: nil, on: loop)
                }?.page.items.map(\.id)
                #expect(idsAfterRestart == ["a"])
            }
        }
    }

    /// `count` event loops of a group of their own, shut down after `body`.
    static func withLoops<T: Sendable>(_ count: Int, _ body: ([any EventLoop]) async throws -> T) async throws -> T {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: count)
        do {
            let value = try await body(Array(group.makeIterator()))
            try await group.shutdownGracefully()
            return value
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// `body`'s value once it stops throwing, trying every 250 ms for a minute (a loaded full run once needed more than
    /// the 15 s this had for a stopped store's backends to go); nil after that.
    static func eventually<T: Sendable>(_ body: () async throws -> T) async throws -> T? {
        for _ in 0..<240 {
            if let value = try? await body() { return value }
            try await Task.sleep(for: .milliseconds(250))
        }
        return nil
    }
}
