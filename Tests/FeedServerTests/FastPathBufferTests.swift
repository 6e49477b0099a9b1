import Catalog
import Deadlines
import Foundation
import MediaModel
import SQLiteCatalog
import Synchronization
import Testing

@testable import FeedServer

/// The feed's fast path keeps what arrives behind a page it is reading (issue 62): while a networked catalog is
/// answering, it holds reads back, so a client that pipelines a huge body behind a feed request fills its own
/// socket buffers, not the server's memory.
@Suite(.timeLimit(.minutes(5))) struct FastPathBufferTests {
    @Test func aPipelinedBodyBehindAFeedReadIsNotReadIntoMemory() async throws {
        let rig = try ServerRig()
        try await rig.store.seed(count: 3)
        let catalog = GatedFeed(rig.store)
        let server = FeedServer(store: catalog, media: rig.server.media)
        try await withLiveServer(server) { listening in
            let socket = try await RawSocket.offThePool { try RawSocket(port: listening.address.port) }
            try await RawSocket.offThePool { try socket.send("GET /v1/feed?limit=2 HTTP/1.1\r\nHost: x\r\n\r\n") }
            try await withDeadline(.seconds(60), "the fast path's page read to reach the gate") {
                await catalog.firstReadStarted()
            }
            // 64 MB offered behind it; only socket buffers (a few MB) can take it while the page is being read.
            let offered = 64 << 20
            let taken = try await RawSocket.offThePool {
                try socket.send("POST /v1/feed HTTP/1.1\r\nHost: x\r\nContent-Length: \(1 << 30)\r\n\r\n")
                let piece = [UInt8](repeating: 0x64, count: 64 << 10)
                var taken = 0
                while taken < offered {
                    guard let count = socket.sendWithoutWaiting(piece) else { break }
                    taken += count
                    if count == 0, !socket.waitUntilWritable(seconds: 2) { break }  // the server reads no more
                }
                return taken
            }
            #expect(taken < offered / 2, "the server read \(taken) bytes while its page was being read")
            catalog.open()
            let answer = try await RawSocket.offThePool { socket.receiveAvailable(waiting: 60) }
            #expect(answer.hasPrefix("HTTP/1.1 200 "), "\(answer.prefix(300))")
        }
    }
}

/// The catalog's feed reads, held until the test opens the gate, and no in-process fast path: a feed request takes
/// the fast path's query route as with a networked catalog.
final class GatedFeed: FeedReading, JobStatusReading {
    let base: SQLiteCatalogEngine
    private let gate: AsyncStream<Void>
    private let opener: AsyncStream<Void>.Continuation
    private let started: AsyncStream<Void>
    private let starter: AsyncStream<Void>.Continuation

    init(_ base: SQLiteCatalogEngine) {
        self.base = base
        (gate, opener) = AsyncStream.makeStream(of: Void.self)
        (started, starter) = AsyncStream.makeStream(of: Void.self)
    }

    deinit {
        opener.finish()
        starter.finish()
    }

    func open() { opener.finish() }

    func firstReadStarted() async {
        for await _ in started { return }
    }

    private func pass() async {
        starter.yield()
        for await _ in gate {}
    }

    func pageWithGeneration(
        limit: Int, after cursor: FeedPosition?
    ) async throws(CatalogError) -> (
        page: FeedPage, generation: Int64
    ) {
        await pass()
        return try await base.pageWithGeneration(limit: limit, after: cursor)
    }

    func generation() async throws(CatalogError) -> Int64 {
        await pass()
        return try await base.generation()
    }

    func item(id: String) async throws(CatalogError) -> FeedItem? { try await base.item(id: id) }
    func video(id: String) async throws(CatalogError) -> FeedVideo? { try await base.video(id: id) }
    func publishedVideoIDs(among ids: [String]) async throws(CatalogError) -> Set<String> {
        try await base.publishedVideoIDs(among: ids)
    }
    func publishedVideos() async throws(CatalogError) -> [FeedVideo] { try await base.publishedVideos() }
    func videoCount() async throws(CatalogError) -> Int { try await base.videoCount() }
    func ping() async throws(CatalogError) { try await base.ping() }
    var synchronousFeed: (any SynchronousFeed)? { nil }
    func job(id: String) async throws(CatalogError) -> FeedJob? { try await base.job(id: id) }
}
