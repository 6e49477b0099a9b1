import Catalog
import Foundation
import MediaModel
import Testing

/// Webhooks' outbox (issue 65) on every engine: an event's deliveries are written by the transaction of the change it
/// reports, for the endpoints that asked for its kind, and never by one that did not commit; dispatchers lease due
/// rows without sharing them, a dead one's rows come due again, and only a lease's holder settles it.
@Suite(.timeLimit(.minutes(10))) struct WebhookOutboxConformanceTests {
    static func endpoint(_ id: String, _ events: Set<WebhookEvent.Kind>) -> WebhookEndpoint {
        WebhookEndpoint(
            id: id, url: "https://hooks.example.com/\(id)", events: events, secret: "whsec_\(id)",
            allowsPrivateAddresses: false, createdAt: 1)
    }

    /// Each delivery as (endpoint, type, post id), leased once at `now` by a throwaway owner and settled delivered.
    static func drain(_ store: any CatalogRoles, now: Int64) async throws -> [String] {
        let leased = try await store.leaseWebhookDeliveries(owner: "drain", now: now, leaseMilliseconds: 1, limit: 100)
        for delivery in leased {
            #expect(try await store.settleWebhookDelivery(delivery, .delivered(status: 200), now: now))
        }
        return try leased.map { delivery in
            let body = try #require(
                try JSONSerialization.jsonObject(with: Data(delivery.body.utf8)) as? [String: Any])
            #expect(body["id"] as? String == delivery.eventID && body["type"] as? String == delivery.kind.rawValue)
            let data = try #require(body["data"] as? [String: Any])
            return "\(delivery.endpoint.id) \(delivery.kind.rawValue) \(data["id"] as? String ?? "?")"
        }.sorted()
    }

    @Test(arguments: CatalogEngine.allCases)
    func everyStateChangeQueuesItsEventForTheEndpointsThatAskedForIt(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.addWebhookEndpoint(Self.endpoint("all", Set(WebhookEvent.Kind.allCases)))
            try await store.addWebhookEndpoint(Self.endpoint("gone", [.deleted]))
            #expect(try await store.webhookEndpoints().map(\.endpoint.id) == ["all", "gone"])
            #expect(
                try await store.webhookEndpoints().first?.endpoint
                    == Self.endpoint("all", Set(WebhookEvent.Kind.allCases)))

            for id in ["v1", "v2", "v3", "v4", "img"] { try await Fixtures.queue(store, id, now: 1) }
            var leases: [String: JobLease] = [:]
            for _ in 0..<5 {
                let job = try #require(try await store.claimNextJob(owner: "w", now: 2, leaseMilliseconds: 60_000))
                leases[job.id] = job.lease
            }
            let v1 = try #require(leases["v1"]), v2 = try #require(leases["v2"]), v3 = try #require(leases["v3"])
            let v4 = try #require(leases["v4"]), image = try #require(leases["img"])
            // Playable twice (a later claim's provisional rendition), then published: one playable event.
            try await store.publishPlayable(Fixtures.video("v1", hash: "p1"), lease: v1, now: 3)
            try await store.publishPlayable(Fixtures.video("v1", hash: "p1b"), lease: v1, now: 4)
            try await store.publish(Fixtures.video("v1", hash: "h1"), lease: v1, now: 5)
            try await store.finishJob(
                v2, as: .rejected(Rejection(.tooLarge, "51 MB, over the 50 MB limit", path: "v2")), now: 6)
            try await store.finishJob(
                v3, as: .failed(ProcessingFailure(.crashed, "the job process died", path: "v3")), now: 7)
            try await store.finishDuplicate(v4, of: PublishedMedia(kind: .video, id: "v1"), now: 8)
            try await store.setJobFacts(image, kind: .image, contentHash: nil, now: 8)
            try await store.finishJob(
                image, as: .rejected(Rejection(.tooLarge, "too big", path: "img")), kind: .image, now: 9)
            // A lost lease announces nothing: its transaction rolled back.
            await #expect(throws: CatalogError.self) {
                try await store.publish(Fixtures.video("v2", hash: "h2"), lease: v2, now: 10)
            }
            #expect(try await store.removePost(id: "v1", reason: "creator", now: 11) != .notFound)
            // A second deletion changes nothing, and says nothing.
            _ = try await store.removePost(id: "v1", reason: "creator", now: 12)

            #expect(
                try await Self.drain(store, now: 20) == [
                    "all video.deleted v1", "all video.failed v3", "all video.playable v1", "all video.published v1",
                    "all video.published v1", "all video.rejected v2", "gone video.deleted v1",
                ])
            #expect(
                try await store.leaseWebhookDeliveries(owner: "x", now: 30, leaseMilliseconds: 1, limit: 100).isEmpty)
            let counts = try await store.webhookEndpoints().map { [$0.pending, $0.delivered, $0.abandoned] }
            #expect(counts == [[0, 6, 0], [0, 1, 0]])
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func anEventsBodySaysWhatChangedAndTheSameEventHasOneIDForEveryEndpoint(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.addWebhookEndpoint(Self.endpoint("a", [.published]))
            try await store.addWebhookEndpoint(Self.endpoint("b", [.published, .deleted]))
            try await Fixtures.queue(store, "v1", now: 1)
            let lease = try #require(try await store.claimNextJob(owner: "w", now: 2, leaseMilliseconds: 60_000)).lease
            var video = Fixtures.video("v1", hash: "h1")
            video.post = PostFacts(caption: "never in a webhook", visibility: .unlisted)
            try await store.publish(video, lease: lease, now: 1_796_000_000_123)
            let leased = try await store.leaseWebhookDeliveries(
                owner: "d", now: 1_796_000_000_200, leaseMilliseconds: 1_000, limit: 10)
            #expect(leased.count == 2 && Set(leased.map(\.eventID)).count == 1)
            let delivery = try #require(leased.first)
            #expect(delivery.eventID.hasPrefix("evt_") && delivery.eventID.count == 28)
            #expect(delivery.createdAt == 1_796_000_000_123 && delivery.attempt == 1 && delivery.owner == "d")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(delivery.body.utf8)) as? [String: Any])
            #expect(body["type"] as? String == "video.published")
            #expect(body["created_at"] as? String == "2026-11-30T00:53:20.123Z")
            let data = try #require(body["data"] as? [String: Any])
            #expect(data["id"] as? String == "v1" && data["job_id"] as? String == "v1")
            #expect(data["video_url"] as? String == "/v1/videos/v1" && data["visibility"] as? String == "unlisted")
            #expect(
                data["duration_ms"] as? Int == 15_250 && data["width"] as? Int == 1080 && data["height"] as? Int == 1920
            )
            #expect(!delivery.body.contains("never in a webhook"), "a caption is the app's, not the webhook's")
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func leasesAreNotSharedAndADeadHoldersRowsComeDueAgain(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.addWebhookEndpoint(Self.endpoint("a", [.deleted]))
            try await store.publish(Fixtures.video("v1", hash: "h1", publishedAt: 100))
            try await store.publish(Fixtures.video("v2", hash: "h2", publishedAt: 100))
            _ = try await store.removePost(id: "v1", reason: "admin", now: 1_000)
            _ = try await store.removePost(id: "v2", reason: "admin", now: 1_001)
            #expect(try await store.nextWebhookDue() == 1_000)
            let first = try await store.leaseWebhookDeliveries(owner: "A", now: 2_000, leaseMilliseconds: 500, limit: 1)
            let second = try await store.leaseWebhookDeliveries(
                owner: "B", now: 2_000, leaseMilliseconds: 500, limit: 5)
            #expect(first.count == 1 && second.count == 1 && first[0].id != second[0].id)
            #expect(
                try await store.leaseWebhookDeliveries(owner: "C", now: 2_499, leaseMilliseconds: 500, limit: 5).isEmpty
            )
            #expect(try await store.nextWebhookDue() == 2_500)
            // A dies; its row comes due when its lease ends, with the next attempt's number.
            let taken = try await store.leaseWebhookDeliveries(owner: "C", now: 2_500, leaseMilliseconds: 500, limit: 5)
            #expect(taken.map(\.id).sorted() == (first + second).map(\.id).sorted())
            #expect(taken.allSatisfy { $0.attempt == 2 })
            // The old holders are fenced out; the new one settles.
            #expect(try await !store.settleWebhookDelivery(first[0], .delivered(status: 200), now: 2_600))
            let retry = try #require(taken.first { $0.id == first[0].id })
            #expect(try await store.settleWebhookDelivery(retry, .retry(at: 9_000, error: "answered 503"), now: 2_600))
            let abandon = try #require(taken.first { $0.id == second[0].id })
            #expect(try await store.settleWebhookDelivery(abandon, .abandoned(error: "answered 410"), now: 2_600))
            #expect(try await !store.settleWebhookDelivery(abandon, .delivered(status: 200), now: 2_601))
            #expect(try await store.nextWebhookDue() == 9_000)
            #expect(
                try await store.leaseWebhookDeliveries(owner: "C", now: 8_999, leaseMilliseconds: 500, limit: 5).isEmpty
            )
            let third = try await store.leaseWebhookDeliveries(owner: "C", now: 9_000, leaseMilliseconds: 500, limit: 5)
            #expect(third.map(\.attempt) == [3])
            let status = try #require(try await store.webhookEndpoints().first)
            #expect(status.pending == 1 && status.delivered == 0 && status.abandoned == 1)
            #expect(status.lastError == "answered 410" || status.lastError == "answered 503")
            #expect(try await store.settleWebhookDelivery(third[0], .delivered(status: 204), now: 9_100))
            #expect(try await store.nextWebhookDue() == nil)
            // Settled rows are forgotten after their retention; an endpoint's removal drops what is still owed.
            #expect(try await store.purgeWebhookDeliveries(settledBefore: 2_601) == 1)
            #expect(try await store.purgeWebhookDeliveries(settledBefore: 10_000) == 1)
            try await store.publish(Fixtures.video("v3", hash: "h3", publishedAt: 100))
            _ = try await store.removePost(id: "v3", reason: "admin", now: 11_000)
            #expect(try await store.removeWebhookEndpoint(id: "a"))
            #expect(try await !store.removeWebhookEndpoint(id: "a"))
            #expect(try await store.nextWebhookDue() == nil)
            #expect(try await store.webhookEndpoints().isEmpty)
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func aRotatedSecretKeepsTheReplacedOneUntilItsTime(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.addWebhookEndpoint(Self.endpoint("a", [.deleted]))
            #expect(try await store.rotateWebhookSecret(id: "a", to: "whsec_second", keepingPreviousUntil: 50_000))
            #expect(try await !store.rotateWebhookSecret(id: "nosuch", to: "whsec_x", keepingPreviousUntil: 1))
            let rotated = try #require(try await store.webhookEndpoints().first?.endpoint)
            #expect(rotated.secret == "whsec_second" && rotated.previousSecret == "whsec_a")
            #expect(rotated.previousSecretUntil == 50_000)
            // What a dispatcher leases signs with both until then.
            try await store.publish(Fixtures.video("v1", hash: "h1", publishedAt: 100))
            _ = try await store.removePost(id: "v1", reason: "admin", now: 1_000)
            let leased = try await store.leaseWebhookDeliveries(owner: "d", now: 2_000, leaseMilliseconds: 10, limit: 5)
            #expect(leased.first?.endpoint.signingSecrets(now: 2_000) == ["whsec_second", "whsec_a"])
            #expect(leased.first?.endpoint.signingSecrets(now: 50_000) == ["whsec_second"])
            // A second rotation replaces the first one's secret: only the latest two are ever kept.
            #expect(try await store.rotateWebhookSecret(id: "a", to: "whsec_third", keepingPreviousUntil: 60_000))
            let again = try #require(try await store.webhookEndpoints().first?.endpoint)
            #expect(again.secret == "whsec_third" && again.previousSecret == "whsec_second")
        }
    }
}
