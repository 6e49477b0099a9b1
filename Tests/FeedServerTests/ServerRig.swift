import Catalog
import FeedServer
import Foundation
import Hummingbird
import MediaFixtures
import MediaStore
import MediaStoreDirectory
import SQLiteCatalog

/// A catalog, an empty library and a server over them in a temporary directory: what the route suites share.
struct ServerRig {
    let directory: TemporaryDirectory
    let store: SQLiteCatalogEngine
    let server: FeedServer

    init() throws {
        directory = try TemporaryDirectory()
        store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        try FileManager.default.createDirectory(atPath: directory.file("library"), withIntermediateDirectories: true)
        server = FeedServer(store: store, media: try .directory(directory.file("library")))
    }

    var app: some ApplicationProtocol { Application(router: server.router()) }

    /// A viewer-session token that `server` (and every copy of it) takes in `Reel-Session`, valid for an hour.
    func sessionToken() -> String {
        ViewerSessionToken.issue(keys: server.eventGate.keys, expiresAt: server.eventGate.unixClock() + 3600).text
    }
}
