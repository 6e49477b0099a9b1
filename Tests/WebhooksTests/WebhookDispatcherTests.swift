import Catalog
import Foundation
import Logging
import MediaFixtures
import SQLiteCatalog
import Synchronization
import Testing

@testable import Webhooks

/// Delivery rounds against a real receiver (scripts/webhook-receiver.py, which checks signatures with Python's hmac)
/// and a SQLite catalog. The outage runs on a clock of the test's own: a round at each moment a delivery falls due,
/// each attempt a real POST (refused while the receiver is down), so ten minutes of back-off take seconds.
@Suite(.timeLimit(.minutes(5))) struct WebhookDispatcherTests {
    final class Clock: Sendable {
        let milliseconds: Mutex<Int64>
        init(_ start: Int64) { milliseconds = Mutex(start) }
        var now: Int64 { milliseconds.withLock { $0 } }
        func advance(to moment: Int64) { milliseconds.withLock { $0 = max($0, moment) } }
    }

    static func endpoint(_ id: String, port: Int, allowPrivate: Bool = true) -> WebhookEndpoint {
        WebhookEndpoint(
            id: id, url: "http://127.0.0.1:\(port)/hook", events: Set(WebhookEvent.Kind.allCases),
            secret: "whsec_\(id)_secret", allowsPrivateAddresses: allowPrivate, createdAt: 0)
    }

    /// `count` posts published by jobs at `now` (a `video.published` each), and the first `deleting` of them deleted.
    static func makeEvents(
        _ store: SQLiteCatalogEngine, prefix: String, count: Int, deleting: Int, now: Int64
    ) async throws -> Int {
        for index in 0..<count {
            let id = "\(prefix)\(index)"
            try await store.insertJob(
                id: id, sourceName: Array(id.utf8), bytes: 1, owner: "intake", now: now, leaseMilliseconds: 60_000)
            try await store.release(JobLease(id: id, epoch: 0, owner: "intake"), now: now)
            let lease = try #require(try await store.claimNextJob(owner: "w", now: now, leaseMilliseconds: 60_000))
                .lease
            try await store.publish(Self.video(id), lease: lease, now: now)
        }
        for index in 0..<deleting {
            _ = try await store.removePost(id: "\(prefix)\(index)", reason: "creator", now: now)
        }
        return count + deleting
    }

    static func video(_ id: String) -> PublishedVideo {
        PublishedVideo(
            id: id, createdAt: 1, publishedAt: 2, durationMilliseconds: 15_000, width: 720, height: 1280,
            contentHash: "hash-\(id)", source: nil, masterPath: "videos/\(id)/master.m3u8",
            posterJPEGPath: "videos/\(id)/poster.jpg",
            posterWebPPath: "videos/\(id)/poster.webp", renditions: [])
    }

    static func dispatcher(_ store: SQLiteCatalogEngine, timeout: Duration = .seconds(3)) -> WebhookDispatcher {
        var logger = Logger(label: "webhooks-test")
        logger.logLevel = .critical
        return WebhookDispatcher(
            outbox: store, sender: WebhookSender(timeout: timeout), backoff: WebhookBackoff(), owner: "test",
            logger: logger)
    }

    @Test func aReceiverDownForTenMinutesGetsEveryEventAfterwardsOnce() async throws {
        let directory = try TemporaryDirectory()
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        let port = try FreePort.pick()
        let endpoint = Self.endpoint("down", port: port)
        try await store.addWebhookEndpoint(endpoint)
        let start = Int64(Date().timeIntervalSince1970 * 1000)
        let clock = Clock(start)
        let dispatcher = Self.dispatcher(store)
        var made = try await Self.makeEvents(store, prefix: "a", count: 6, deleting: 2, now: start)

        // Down for ten minutes: a round whenever something falls due; more events arrive half-way.
        var refused = 0
        var addedHalfWay = false
        while clock.now < start + 600_000 {
            refused += await dispatcher.round { clock.now }
            if !addedHalfWay, clock.now >= start + 300_000 {
                addedHalfWay = true
                made += try await Self.makeEvents(store, prefix: "b", count: 3, deleting: 1, now: clock.now)
            }
            let due = try #require(try await store.nextWebhookDue(), "deliveries outstanding while down")
            clock.advance(to: min(max(due, clock.now + 1), start + 600_000))
        }
        #expect(refused >= made * 3, "\(refused) refused attempts for \(made) events")
        let pending = try #require(try await store.webhookEndpoints().first)
        #expect(pending.pending == made && pending.delivered == 0 && pending.abandoned == 0)
        #expect(pending.lastError?.hasPrefix("no answer") == true, "\(pending.lastError ?? "")")

        let receiver = try WebhookReceiver(directory: directory.path, port: port, secret: endpoint.secret)
        defer { receiver.process.signal(SIGKILL) }
        #expect(await receiver.listening(), "the receiver never listened: \(receiver.process.stderr)")
        var rounds = 0
        while let due = try await store.nextWebhookDue(), rounds < 200 {
            clock.advance(to: due)
            rounds += await dispatcher.round { clock.now } > 0 ? 1 : 0
        }
        let delivered = try #require(try await store.webhookEndpoints().first)
        #expect(delivered.pending == 0 && delivered.delivered == made && delivered.abandoned == 0)
        // Each event once after the receiver's de-duplication, each attempt signed; the last arrived within the
        // back-off's longest wait at that point (the outage's length, doubling from 5 s).
        let ids = receiver.events.compactMap { $0["id"] as? String }
        #expect(ids.count == made && Set(ids).count == made, "\(ids)")
        #expect(receiver.attempts.allSatisfy { $0["verified"] as? Bool == true }, "\(receiver.attempts)")
        #expect(clock.now - (start + 600_000) <= 640_000, "the last delivery waited \(clock.now - start - 600_000) ms")
        let types = Dictionary(grouping: receiver.events, by: { $0["type"] as? String ?? "" }).mapValues(\.count)
        #expect(types == ["video.published": 9, "video.deleted": 3], "\(types)")
    }

    /// Two endpoints: one whose receiver never answers, and one whose receiver answers at once.
    static func slowAndQuick(
        _ store: SQLiteCatalogEngine, in directory: TemporaryDirectory
    ) async throws -> (slow: WebhookReceiver, quick: WebhookReceiver) {
        var receivers: [WebhookReceiver] = []
        for (name, hang) in [("slow", 100), ("quick", 0)] {
            try FileManager.default.createDirectory(atPath: directory.file(name), withIntermediateDirectories: true)
            let port = try FreePort.pick()
            try await store.addWebhookEndpoint(Self.endpoint(name, port: port))
            let receiver = try WebhookReceiver(
                directory: directory.file(name), port: port, secret: "whsec_\(name)_secret", hang: hang)
            receivers.append(receiver)
            #expect(await receiver.listening(), "\(name): \(receiver.process.stderr)")
        }
        return (receivers[0], receivers[1])
    }

    @Test func aReceiverThatNeverAnswersDoesNotHoldUpAnother() async throws {
        let directory = try TemporaryDirectory()
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        let (slow, quick) = try await Self.slowAndQuick(store, in: directory)
        defer {
            slow.process.signal(SIGKILL)
            quick.process.signal(SIGKILL)
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        _ = try await Self.makeEvents(store, prefix: "v", count: 1, deleting: 0, now: now)
        let dispatcher = Self.dispatcher(store, timeout: .seconds(30))
        let round = Task { await dispatcher.round { Int64(Date().timeIntervalSince1970 * 1000) } }
        // The quick endpoint's delivery is settled while the slow one's attempt is still waiting for an answer.
        let settled = await ChildProcess.suspendUntil(seconds: 25) {
            (try? await store.webhookEndpoints())?.first { $0.endpoint.id == "quick" }?.delivered == 1
        }
        #expect(settled, "the quick endpoint waited for the slow one")
        #expect(slow.attempts.count == 1 && quick.events.count == 1)
        #expect((try await store.webhookEndpoints()).first { $0.endpoint.id == "slow" }?.pending == 1)
        round.cancel()
        _ = await round.value
    }

    /// The service keeps attempts in flight on their own: an event that comes later reaches the quick endpoint while
    /// the slow one still holds its first request (a round that waited for all would wait for the 60 s timeout).
    @Test func theServiceDeliversALaterEventWhileAnotherEndpointHoldsItsRequest() async throws {
        let directory = try TemporaryDirectory()
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        let (slow, quick) = try await Self.slowAndQuick(store, in: directory)
        defer {
            slow.process.signal(SIGKILL)
            quick.process.signal(SIGKILL)
        }
        let service = WebhookService(
            dispatcher: Self.dispatcher(store, timeout: .seconds(60)), poll: .milliseconds(100))
        let running = Task { try await service.run() }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        _ = try await Self.makeEvents(store, prefix: "a", count: 1, deleting: 0, now: now)
        let first = await ChildProcess.suspendUntil(seconds: 20) {
            quick.events.count == 1 && slow.attempts.count == 1
        }
        #expect(first, "quick \(quick.events.count), slow \(slow.attempts.count)")
        _ = try await Self.makeEvents(store, prefix: "b", count: 1, deleting: 0, now: now + 1)
        let second = await ChildProcess.suspendUntil(seconds: 20) { quick.events.count == 2 }
        #expect(second, "the later event waited for the slow endpoint's request")
        let statuses = try await store.webhookEndpoints()
        #expect(statuses.first { $0.endpoint.id == "slow" }?.pending == 2)
        #expect(statuses.first { $0.endpoint.id == "quick" }?.delivered == 2)
        running.cancel()
        _ = await running.result
    }

    /// A receiver that still holds the replaced secret verifies deliveries during a rotation's overlap, and refuses
    /// them (400) once the replaced secret no longer signs.
    @Test func aReceiverWithTheReplacedSecretVerifiesOnlyDuringTheOverlap() async throws {
        let directory = try TemporaryDirectory()
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        let port = try FreePort.pick()
        let endpoint = Self.endpoint("turning", port: port)
        try await store.addWebhookEndpoint(endpoint)
        let receiver = try WebhookReceiver(directory: directory.path, port: port, secret: endpoint.secret)
        defer { receiver.process.signal(SIGKILL) }
        #expect(await receiver.listening())
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(
            try await store.rotateWebhookSecret(id: "turning", to: "whsec_next", keepingPreviousUntil: now + 3_600_000))
        _ = try await Self.makeEvents(store, prefix: "a", count: 1, deleting: 0, now: now)
        #expect(await Self.dispatcher(store).round { now } == 1)
        #expect(receiver.events.count == 1 && receiver.attempts.allSatisfy { $0["verified"] as? Bool == true })

        #expect(try await store.rotateWebhookSecret(id: "turning", to: "whsec_last", keepingPreviousUntil: now))
        _ = try await Self.makeEvents(store, prefix: "b", count: 1, deleting: 0, now: now)
        #expect(await Self.dispatcher(store).round { now } == 1)
        #expect(receiver.events.count == 1, "signed only with secrets the receiver does not hold")
        #expect(receiver.attempts.last?["verified"] as? Bool == false)
        #expect(try await store.webhookEndpoints().first?.lastError == "answered 400")
    }

    @Test func redirectsAndPrivateAddressesAreFailedAttemptsThatSayWhy() async throws {
        let directory = try TemporaryDirectory()
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        let port = try FreePort.pick()
        try await store.addWebhookEndpoint(Self.endpoint("moved", port: port))
        let receiver = try WebhookReceiver(
            directory: directory.path, port: port, secret: "whsec_moved_secret", status: 302)
        defer { receiver.process.signal(SIGKILL) }
        #expect(await receiver.listening())
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        _ = try await Self.makeEvents(store, prefix: "v", count: 1, deleting: 0, now: now)
        #expect(await Self.dispatcher(store).round { now } == 1)
        let moved = try #require(try await store.webhookEndpoints().first)
        #expect(moved.pending == 1 && moved.lastError == "answered 302 (redirects are not followed)")
        #expect(receiver.attempts.count == 1 && receiver.events.isEmpty)

        // The same receiver, registered without leave to reach private addresses: nothing is sent to it.
        #expect(try await store.removeWebhookEndpoint(id: "moved"))
        try await store.addWebhookEndpoint(Self.endpoint("private", port: port, allowPrivate: false))
        _ = try await Self.makeEvents(store, prefix: "w", count: 1, deleting: 0, now: now)
        #expect(await Self.dispatcher(store).round { now } == 1)
        let refused = try #require(try await store.webhookEndpoints().first)
        #expect(refused.lastError?.hasPrefix("refused: 127.0.0.1 is not a public address") == true, "\(refused)")
        #expect(receiver.attempts.count == 1, "no connection was made")
    }
}
