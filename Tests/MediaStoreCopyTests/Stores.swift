import Foundation
import MediaStore
import MediaStoreDirectory
import MediaStoreS3
import ObjectStore
import SigV4
import TestServers

/// An empty S3 store on a prefix of the test's own in the process's shared SeaweedFS; its client is shut down after
/// `body`, whatever happens.
func withS3Store<T>(_ body: (S3MediaStore) async throws -> T) async throws -> T {
    let server = try await SeaweedTestServer.shared()
    let client = S3Client(
        location: try S3Location(parsing: server.libraryURL(prefix: SeaweedTestServer.newPrefix() + "/media")),
        credentials: SigV4Credentials(accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey))
    return try await client.shutDown { try await body(S3MediaStore(client: $0)) }
}

/// A directory store at `path`, made first.
func directoryStore(_ path: String) throws -> DirectoryMediaStore {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return try DirectoryMediaStore(root: path)
}
