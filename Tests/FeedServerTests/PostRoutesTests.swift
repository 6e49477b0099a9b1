import Catalog
import FileSystem
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MediaFixtures
import MediaModel
import MediaStore
import MediaStoreDirectory
import NIOCore
import SQLiteCatalog
import Testing
import ViewerAnalytics

@testable import FeedServer

/// A post's own routes (issue 65) through the router, on a library directory. `DELETE /v1/videos/{id}`: the
/// uploader's token or an admin token deletes a post, which leaves the feed, its files and original, its viewers'
/// events and its job at once; any other caller cannot tell it from a missing post; a second deletion is harmless.
/// `PATCH` and private posts: PostRoutesTests+Visibility.
@Suite(.timeLimit(.minutes(5))) struct PostRoutesTests {
    let directory: TemporaryDirectory
    let store: SQLiteCatalogEngine
    let library: DirectoryMediaStore
    let server: FeedServer
    let owner: String
    let other: String
    let admin: String
    var app: some ApplicationProtocol { Application(router: server.router()) }

    init() async throws {
        directory = try TemporaryDirectory()
        store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        try Directory.create(directory.file("library"))
        library = try DirectoryMediaStore(root: directory.file("library"))
        let uploads = try DirectoryResumableUploads(library: directory.file("library"))
        var server = FeedServer(store: store, media: MediaServing(store: library))
        server.uploads = UploadDesk(
            store: store, configuration: UploadConfiguration(uploads: uploads, limits: .default))
        server.deleter = PostDeleter(
            catalog: store, library: library, uploads: uploads, logger: Logger(label: "reel.deletion.test"))
        self.server = server
        owner = try await Self.token(store, "phone")
        other = try await Self.token(store, "other")
        admin = try await Self.token(store, "ops", admin: true)
    }

    static func token(_ store: SQLiteCatalogEngine, _ name: String, admin: Bool = false) async throws -> String {
        let (secret, hash) = try BearerToken.generate()
        try await store.createToken(
            UploadToken(id: name, name: name, hash: hash, rateLimit: nil, createdAt: 1, isAdmin: admin))
        return secret
    }

    /// A post uploaded with `owner`'s token and published as the worker does: its ladder under its claim's folder,
    /// its original, and two viewers' events.
    func publishedUpload(id: String) async throws {
        try await store.createUpload(
            UploadRecord(
                id: id, tokenID: "phone", length: 10, metadata: "", filename: Array("clip.mp4".utf8), createdAt: 1,
                updatedAt: 1, expiresAt: .max))
        try await store.assignUploadJob(id: id, jobID: id, now: 2)
        try await store.finishUpload(id: id, jobID: id, sourceName: [0x61], bytes: 10, post: PostFacts(), now: 2)
        let lease = try #require(try await store.claimNextJob(owner: "w", now: 3, leaseMilliseconds: 60_000)).lease
        try await publish(id, lease: lease)
    }

    func publish(_ id: String, lease: JobLease? = nil, visibility: Visibility = .public) async throws {
        let folder = LibraryLayout.video(id, epoch: 1)
        for (name, bytes) in [
            ("master.m3u8", "#EXTM3U\n"), ("360p/index.m3u8", "#EXTM3U\n"), ("360p/seg_000.m4s", "segment"),
            ("poster.jpg", "jpeg"),
        ] {
            _ = try await library.put(
                try MediaKey(folder + "/" + name), bytes: ByteBuffer(string: bytes),
                attributes: .media(named: name), createOnly: false)
        }
        _ = try await library.put(
            try MediaKey(LibraryLayout.original(id)), bytes: ByteBuffer(string: "original"),
            attributes: .private(), createOnly: false)
        let video = PublishedVideo(
            id: id, createdAt: 1, publishedAt: 5, durationMilliseconds: 15_000, width: 360, height: 640,
            contentHash: "h-" + id, source: nil, masterPath: folder + "/master.m3u8",
            posterJPEGPath: folder + "/poster.jpg", posterWebPPath: folder + "/poster.webp",
            renditions: [
                FeedVideo.Rendition(
                    rung: "360p", width: 360, height: 640, bandwidth: 1, averageBandwidth: 1, codecs: "avc1",
                    segments: 1)
            ], post: PostFacts(caption: "gone soon", visibility: visibility))
        if let lease { try await store.publish(video, lease: lease, now: 4) } else { try await store.publish(video) }
        try await store.appendViewerEvents(
            (0..<2).map {
                ReceivedViewerEvent(
                    receivedAt: Int64(10 + $0),
                    event: ViewerEvent(session: "s", video: id, kind: .stall(milliseconds: 5)))
            })
    }

    func delete(_ client: some TestClientProtocol, _ id: String, token: String?) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/videos/\(id)", method: .delete,
            headers: token.map { [.authorization: "Bearer \($0)"] } ?? [:])
    }

    @Test func theUploadersTokenDeletesItsPostAndEverythingOfItGoes() async throws {
        let id = LibraryLayout.newID()
        try await publishedUpload(id: id)
        try await app.test(.router) { client in
            #expect(try await delete(client, id, token: nil).status == .unauthorized)
            let refused = try await delete(client, id, token: other)
            #expect(refused.status == .notFound, "another token's post is as missing as none")
            try await client.execute(uri: "/v1/videos/\(id)", method: .get) { #expect($0.status == .ok) }

            let deleted = try await delete(client, id, token: owner)
            #expect(deleted.status == .ok, "\(String(buffer: deleted.body))")
            #expect(deleted.headers[.cacheControl] == "no-store")
            let body = try #require(
                try JSONSerialization.jsonObject(with: Data(String(buffer: deleted.body).utf8)) as? [String: Any])
            #expect(body["id"] as? String == id && body["reason"] as? String == "creator")
            let removed = try #require(body["removed"] as? [String: Any])
            #expect(removed["from_feed"] as? Bool == true && removed["original"] as? Bool == true, "\(removed)")
            #expect(removed["media_objects"] as? Int == 4 && removed["viewer_events"] as? Int == 2, "\(removed)")
            #expect(removed["job"] as? Bool == true && removed["uploads"] as? Int == 1, "\(removed)")

            try await client.execute(uri: "/v1/feed", method: .get) { response in
                #expect(!String(buffer: response.body).contains(id))
            }
            try await client.execute(uri: "/v1/videos/\(id)", method: .get) { #expect($0.status == .notFound) }
            let master = "/media/" + LibraryLayout.video(id, epoch: 1) + "/master.m3u8"
            try await client.execute(uri: master, method: .get) { #expect($0.status == .notFound) }
            #expect(try await library.list(prefix: LibraryLayout.videos).isEmpty)
            #expect(try await library.head(try MediaKey(LibraryLayout.original(id))) == nil)
            #expect(try await store.viewerEvents(after: 0, limit: 10).isEmpty)
            #expect(try await store.tombstone(id: id)?.mediaRemovedAt != nil)

            // Again: the uploader's token no longer finds it; an admin's is told it is done.
            #expect(try await delete(client, id, token: owner).status == .notFound)
            #expect(try await delete(client, id, token: admin).status == .noContent)
        }
    }

    @Test func anAdminTokenDeletesAnyPostAndNothingElseDoes() async throws {
        try await publish("inboxpost")
        try await app.test(.router) { client in
            #expect(try await delete(client, "inboxpost", token: owner).status == .notFound, "no uploader: admin only")
            let deleted = try await delete(client, "inboxpost", token: admin)
            #expect(deleted.status == .ok, "\(String(buffer: deleted.body))")
            #expect(String(buffer: deleted.body).contains(#""reason":"admin""#))
            for id in ["missing", "UPPER", "a/b", String(repeating: "a", count: 65)] {
                let response = try await delete(client, id, token: admin)
                #expect(response.status == .notFound, "\(id)")
                #expect(String(buffer: response.body).contains("not_found"))
            }
        }
    }

    /// The catalog's commit happened and the files did not go (a crash, a store away): the service finishes them.
    @Test func filesACrashLeftAreRemovedByTheService() async throws {
        try await publish("interrupted")
        _ = try await store.removePost(id: "interrupted", reason: "admin", now: 1)
        #expect(try await library.list(prefix: LibraryLayout.videos).count == 4)
        let deleter = try #require(server.deleter)
        #expect(await deleter.finishPending(now: 2) == 1)
        #expect(try await library.list(prefix: LibraryLayout.videos).isEmpty)
        #expect(try await library.head(try MediaKey(LibraryLayout.original("interrupted"))) == nil)
        #expect(try await store.tombstonesAwaitingMedia(limit: 10).isEmpty)
        #expect(await deleter.finishPending(now: 3) == 0)
    }
}
