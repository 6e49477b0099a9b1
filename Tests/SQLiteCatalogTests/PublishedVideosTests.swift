import Catalog
import Foundation
import MediaFixtures
import MediaModel
import SQLiteCatalog
import Testing

/// The whole library as a tool that models it reads it: every published video, through a read-only connection.
@Suite(.timeLimit(.minutes(5))) struct PublishedVideosTests {
    static let hint = PrefetchHint(
        initBytes: 812, segmentDurationMilliseconds: 2000,
        firstSegments: [
            .init(durationMilliseconds: 2000, bytes: 90_000), .init(durationMilliseconds: 2000, bytes: 80_000),
        ])

    static func video(_ id: String, publishedAt: Int64) -> PublishedVideo {
        PublishedVideo(
            id: id, createdAt: 1, publishedAt: publishedAt, durationMilliseconds: 8000, width: 360, height: 640,
            contentHash: id,
            source: nil, masterPath: "videos/\(id)/master.m3u8", posterJPEGPath: "videos/\(id)/poster.jpg",
            posterWebPPath: "videos/\(id)/poster.webp",
            renditions: [
                FeedVideo.Rendition(
                    rung: "360p", width: 360, height: 640, bandwidth: 700_000, averageBandwidth: 600_000,
                    codecs: "avc1.64001e,mp4a.40.2", segments: 4, prefetch: hint)
            ])
    }

    @Test func everyPublishedVideoComesWithItsHintsNewestFirst() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("catalog.sqlite")
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: path))
        try await store.publish(Self.video("older", publishedAt: 2))
        try await store.publish(Self.video("newer", publishedAt: 5))
        let reader = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(readOnlyPath: path))
        let videos = try await reader.publishedVideos()
        #expect(videos.map(\.id) == ["newer", "older"])
        #expect(videos.allSatisfy { $0.renditions.map(\.prefetch) == [Self.hint] })
    }

    @Test func aReadOnlyCatalogRefusesWritesAndIsNeverCreated() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("catalog.sqlite")
        _ = try SQLiteCatalogDatabase(path: path)
        let reader = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(readOnlyPath: path))
        await #expect(throws: CatalogError.self) { try await reader.publish(Self.video("v", publishedAt: 1)) }
        #expect(try await reader.publishedVideos().isEmpty)
        let missing = directory.file("missing.sqlite")
        #expect(throws: (any Error).self) { try SQLiteCatalogDatabase(readOnlyPath: missing) }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
