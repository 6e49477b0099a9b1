import Foundation
import MediaFixtures
import ObjectStore
import SigV4
import TestServers

/// A client on a prefix of the test's own in the process's shared SeaweedFS, or (`ownServer`, for a test that stops
/// or restarts it) on a SeaweedFS of the test's own; the client is shut down after `body` whatever happens.
func withStore<T>(
    prefix: String = "lib", retry: S3RetryPolicy = .standard, ownServer: Bool = false,
    _ body: (SeaweedTestServer, S3Client) async throws -> T
) async throws -> T {
    let server = ownServer ? try await SeaweedTestServer() : try await SeaweedTestServer.shared()
    let client = try makeClient(
        for: server, prefix: ownServer ? prefix : SeaweedTestServer.newPrefix() + "/" + prefix, retry: retry)
    return try await client.shutDown { try await body(server, $0) }
}

func makeClient(
    for server: SeaweedTestServer, prefix: String, retry: S3RetryPolicy = .standard,
    secret: String? = nil
) throws -> S3Client {
    S3Client(
        location: try S3Location(parsing: server.libraryURL(prefix: prefix)),
        credentials: SigV4Credentials(
            accessKeyID: server.accessKeyID, secretAccessKey: secret ?? server.secretAccessKey),
        retry: retry)
}
