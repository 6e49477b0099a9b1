import ArgumentParser
import Foundation
import NIOPosix
import ObjectStore

/// The store's settings for a `--library s3://...` (or a copy's `--from`/`--to`): each flag wins over the URL's own.
/// Credentials are never options: they come from the environment or a credentials file.
struct ObjectStoreOptions: ParsableArguments {
    @Option(
        name: .customLong("s3-endpoint"),
        help: ArgumentHelp(
            "The store's endpoint, e.g. http://127.0.0.1:8333 (overrides the URL's endpoint=).", valueName: "url"))
    var endpoint: String?
    @Option(name: .customLong("s3-region"), help: "The store's region (overrides the URL's region=).") var region:
        String?
    @Option(
        name: .customLong("s3-path-style"),
        help: ArgumentHelp("Path-style addressing, true or false (overrides the URL's path_style=).", valueName: "bool")
    )
    var pathStyle: Bool?

    /// - Throws: `ValidationError` saying what is wrong with `url`.
    func location(_ url: String) throws -> S3Location {
        do {
            return try S3Location(parsing: url, endpoint: endpoint, region: region, pathStyle: pathStyle)
        } catch { throw ValidationError(error.description) }
    }

    /// A client for `location` with the credentials found in the environment or the credentials file (read on NIO's
    /// thread pool). The caller shuts it down.
    func client(
        _ location: S3Location, retry: S3RetryPolicy = .standard, connectTimeout: Duration = .seconds(3)
    ) async throws -> S3Client {
        let environment = ProcessInfo.processInfo.environment
        let credentials = try await NIOThreadPool.singleton.runIfActive {
            try CredentialSource.resolve(environment: environment) { try? String(contentsOfFile: $0, encoding: .utf8) }
        }
        return S3Client(location: location, credentials: credentials, retry: retry, connectTimeout: connectTimeout)
    }
}
