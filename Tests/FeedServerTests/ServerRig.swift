import FeedServer
import FeedStore
import Foundation
import Hummingbird
import MediaFixtures
import MediaStore
import MediaStoreDirectory

/// A catalog, an empty library and a server over them in a temporary directory: what the route suites share.
struct ServerRig {
    let directory: TemporaryDirectory
    let store: SQLiteFeedStore
    let server: FeedServer

    init() throws {
        directory = try TemporaryDirectory()
        store = SQLiteFeedStore(database: try FeedDatabase(path: directory.file("catalog.sqlite")))
        try FileManager.default.createDirectory(atPath: directory.file("library"), withIntermediateDirectories: true)
        server = FeedServer(store: store, media: try .directory(directory.file("library")))
    }

    var app: some ApplicationProtocol { Application(router: server.router()) }

    /// A viewer-session token that `server` (and every copy of it) takes in `Reel-Session`, valid for an hour.
    func sessionToken() -> String {
        ViewerSessionToken.issue(keys: server.eventGate.keys, expiresAt: server.eventGate.unixClock() + 3600).text
    }
}
