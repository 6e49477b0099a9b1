import Catalog
import MediaModel
import SQLiteCatalog
import Testing

/// A post's visibility (issue 65) on every engine: only public posts are in the feed and its rankings; unlisted and
/// private ones are still found by id; a change moves the generation; the access epoch rises when a post becomes
/// private or its links are revoked; and the ladder replacing a playable post keeps what a change made meanwhile.
@Suite(.timeLimit(.minutes(10))) struct PostAccessConformanceTests {
    static func video(_ id: String, _ visibility: Visibility, publishedAt: Int64) -> PublishedVideo {
        var video = Fixtures.video(id, hash: "h-" + id, publishedAt: publishedAt)
        video.post.visibility = visibility
        return video
    }

    @Test(arguments: CatalogEngine.allCases)
    func onlyPublicPostsAreInTheFeedAndEveryPostIsFoundById(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.publish(Self.video("pub", .public, publishedAt: 3_000))
            try await store.publish(Self.video("link", .unlisted, publishedAt: 2_000))
            try await store.publish(Self.video("mine", .private, publishedAt: 1_000))
            #expect(try await store.pageWithGeneration(limit: 10, after: nil).page.items.map(\.id) == ["pub"])
            #expect(try await store.rankingCandidates().map(\.id) == ["pub"])
            #expect(try await store.publishedItems(ids: ["pub", "link", "mine"]).keys.sorted() == ["pub"])
            #expect(try await store.item(id: "link")?.video().post.visibility == .unlisted)
            #expect(try await store.item(id: "mine")?.video().post.visibility == .private)
            #expect(try await store.video(id: "mine")?.post.visibility == .private)
            #expect(try await store.videoAccess(id: "mine") == VideoAccess(visibility: .private, epoch: 0))
            #expect(try await store.videoAccess(id: "none") == nil)
            #expect(try await store.publishedVideoIDs(among: ["link", "mine"]) == ["link", "mine"], "viewers' events")
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func aChangeMovesTheGenerationAndRaisesTheEpochWhenItMust(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.publish(Self.video("p1", .public, publishedAt: 1_000))
            var generation = try await store.generation()
            func expectMoved() async throws {
                let now = try await store.generation()
                #expect(now != generation, "a cached page must be refetched")
                generation = now
            }
            #expect(
                try await store.setVisibility(id: "p1", to: .unlisted, revokingLinks: false, now: 1)
                    == VideoAccess(visibility: .unlisted, epoch: 0))
            try await expectMoved()
            #expect(try await store.pageWithGeneration(limit: 10, after: nil).page.items.isEmpty)
            #expect(
                try await store.setVisibility(id: "p1", to: .private, revokingLinks: false, now: 2)
                    == VideoAccess(visibility: .private, epoch: 1), "becoming private revokes")
            try await expectMoved()
            #expect(
                try await store.setVisibility(id: "p1", to: .private, revokingLinks: false, now: 3)
                    == VideoAccess(visibility: .private, epoch: 1), "staying private does not")
            #expect(
                try await store.setVisibility(id: "p1", to: .private, revokingLinks: true, now: 4)
                    == VideoAccess(visibility: .private, epoch: 2))
            #expect(try await store.item(id: "p1")?.video().accessEpoch == 2, "the record says it too")
            #expect(
                try await store.setVisibility(id: "p1", to: .public, revokingLinks: false, now: 5)
                    == VideoAccess(visibility: .public, epoch: 2))
            let page = try await store.pageWithGeneration(limit: 10, after: nil).page.items
            #expect(page.map(\.id) == ["p1"] && page[0].publishedAt == 1_000, "back in its place")
            #expect(try await store.setVisibility(id: "none", to: .public, revokingLinks: false, now: 6) == nil)
        }
    }

    /// An upload's visibility reaches its video; a change made while it was playable outlives the ladder's publish.
    @Test(arguments: CatalogEngine.allCases)
    func theLadderKeepsAChangeMadeWhileThePostWasPlayable(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await Fixtures.queue(store, "m1", now: 1)
            let lease = try #require(try await store.claimNextJob(owner: "w", now: 2, leaseMilliseconds: 60_000)).lease
            var playable = PlayableConformanceTests.provisional("m1", publishedAt: 3)
            playable.post.visibility = .unlisted
            try await store.publishPlayable(playable, lease: lease, now: 3)
            #expect(try await store.videoAccess(id: "m1") == VideoAccess(visibility: .unlisted, epoch: 0))
            _ = try await store.setVisibility(id: "m1", to: .private, revokingLinks: false, now: 4)
            var ladder = Fixtures.video("m1", hash: "h-m1", publishedAt: 9)
            ladder.post.visibility = .unlisted  // as the upload said
            try await store.publish(ladder, lease: lease, now: 9)
            #expect(try await store.videoAccess(id: "m1") == VideoAccess(visibility: .private, epoch: 1))
            let item = try #require(try await store.item(id: "m1")).video()
            #expect(item.stage == .published && item.post.visibility == .private && item.accessEpoch == 1)
        }
    }
}
