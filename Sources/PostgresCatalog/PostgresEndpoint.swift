package import Catalog
package import Logging
package import NIOPosix
internal import NIOSSL
package import PostgresNIO

/// A `PostgresLocation` (`--database postgres://...`) as PostgresNIO's client configuration: libpq's `sslmode`
/// honoured (TLS off by default), a bounded pool, and timeouts short enough that a server that went away is noticed.
package enum PostgresEndpoint {
    /// The threads every catalog connection pool in this process runs on: not NIO's singleton group, which the HTTP
    /// server may share, so a loop busy elsewhere never delays the catalog and the catalog never delays a request.
    /// (The feed's pinned connections run on the HTTP loops on purpose: `PinnedFeedConnections`.)
    package static let eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: max(1, System.coreCount / 2))

    /// A pool for `location` on `eventLoopGroup`.
    package static func client(_ location: PostgresLocation, connections: Int = 8, logger: Logger) -> PostgresClient {
        PostgresClient(
            configuration: configuration(location, connections: connections), eventLoopGroup: eventLoopGroup,
            backgroundLogger: logger)
    }

    /// - Parameter connections: the pool's upper bound; feed servers and workers each keep their own pool.
    package static func configuration(
        _ location: PostgresLocation, connections: Int = 8
    ) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls(location.sslMode))
        configuration.options.maximumConnections = max(1, connections)
        configuration.options.minimumConnections = 0
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.keepAliveBehavior = .init(frequency: .seconds(15))
        configuration.options.additionalStartupParameters = sessionParameters
        return configuration
    }

    /// Set on every session of the pool. A host cut off from the network in the middle of a transaction leaves its
    /// backend idle in that transaction, holding the job's row lock until TCP notices (hours): every other worker's
    /// take-over of the job then waits on the lock (seen in the multi-host test, 2026-11-27: the job stayed
    /// `processing` for 300 s after another worker logged taking it back). Reel's transactions never wait on their
    /// client for more than a round trip, so the server ends one idle for 30 s and frees its locks.
    static let sessionParameters: [(String, String)] = [("idle_in_transaction_session_timeout", "30s")]

    /// One connection outside the pool (the feed's connections pinned to event loops), with the pool's settings.
    /// - Throws: when the TLS configuration cannot be made into a context (unreadable trust roots).
    static func connectionConfiguration(_ location: PostgresLocation) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch policy(location.sslMode) {
        case .off: tls = .disable
        case let .prefer(configuration): tls = .prefer(try NIOSSLContext(configuration: configuration))
        case let .require(configuration): tls = .require(try NIOSSLContext(configuration: configuration))
        }
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    static func tls(_ mode: PostgresLocation.SSLMode) -> PostgresClient.Configuration.TLS {
        switch policy(mode) {
        case .off: return .disable
        case let .prefer(configuration): return .prefer(configuration)
        case let .require(configuration): return .require(configuration)
        }
    }

    private enum TLSPolicy {
        case off
        case prefer(TLSConfiguration)
        case require(TLSConfiguration)
    }

    /// libpq's modes: `allow` and `prefer` try TLS and accept a server without it; `require` insists on TLS but, as in
    /// libpq, does not check the certificate; `verify-ca` checks the chain; `verify-full` also the host name.
    private static func policy(_ mode: PostgresLocation.SSLMode) -> TLSPolicy {
        var unverified = TLSConfiguration.makeClientConfiguration()
        unverified.certificateVerification = .none
        switch mode {
        case .disable: return .off
        case .allow, .prefer: return .prefer(unverified)
        case .require: return .require(unverified)
        case .verifyCA:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .noHostnameVerification
            return .require(configuration)
        case .verifyFull: return .require(TLSConfiguration.makeClientConfiguration())
        }
    }
}
