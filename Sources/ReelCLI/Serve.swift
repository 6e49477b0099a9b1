import ArgumentParser
import Catalog
import CatalogEngines
import FeedServer
import FileSystem
import Foundation
import Logging
import MediaModel
import MediaStore
import MediaStoreDirectory
import MediaStoreS3
import ObjectStore
import ServiceLifecycle
import Transcode
import Webhooks
import Worker

extension Reel {
    /// `reel serve`: the JSON feed, job status and the library's media over HTTP.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the feed, job status and the library's HLS files and posters over HTTP.",
            discussion: """
                GET / is the web client (the feed in a browser); /v1/uploads takes uploads (tus 1.0.0, bearer tokens from
                reel token create); GET /v1/feed?limit=N&cursor=C, /v1/videos/{id}, /v1/jobs/{id}, /media/..., /healthz, /readyz.
                /metrics is on --admin-listen only (loopback by default). Serve prints "listening on URL" once it is ready
                (with --feed-order engaging, once the first ranking is made), then "admin on URL".
                With --inbox, the worker runs in the same process and publishes into the same catalog and library.
                SIGTERM or SIGINT lets in-flight requests (and running jobs, within --grace) finish, then exits 0.
                """
        )

        @OptionGroup var database: DatabaseOption
        @Option(
            name: .customLong("database-read"),
            help: ArgumentHelp(
                "A read replica for the feed's reads (postgres:// URL or SQLite path); uploads, jobs and publishing use --database.",
                valueName: "path-or-url")) var databaseRead: String?
        @Option(
            name: .long,
            help: ArgumentHelp(
                "The library: a directory holding videos/ and images/, or s3://bucket/prefix (media, uploads over HTTP and --inbox all use the store).",
                valueName: "dir|url")) var library: String
        @OptionGroup var objectStore: ObjectStoreOptions
        @Flag(
            name: .long,
            help: "With an s3:// library, answer /media/ with a 302 to a presigned URL instead of streaming the bytes.")
        var mediaRedirect = false
        @Option(name: .long, help: "How long a --media-redirect URL is valid, in seconds (1 to 604800).")
        var mediaRedirectSeconds = 900
        @Option(
            name: .long,
            help:
                "With an s3:// library, hold up to this many MiB of media in memory and answer from there (0 streams every request from the store)."
        )
        var mediaCacheMb = 128
        @Option(name: .long, help: "Address to bind.") var host = "127.0.0.1"
        @Option(name: .long, help: "Port (0 picks a free one; the chosen port is printed).") var port = 8080
        @Option(name: .long, help: "Per-client rate limit in requests per second (token bucket; off by default).")
        var rateLimit: Double?
        @Option(name: .long, help: "Burst size for --rate-limit (default: 2 × the rate).") var rateBurst: Double?
        @Option(name: .long, help: "Event-loop threads for socket I/O (handlers run on Swift's concurrency pool).")
        var ioThreads = 1
        @Option(name: .long, help: "Also run the worker on this inbox, in this process (see reel worker).") var inbox:
            String?
        @Option(
            name: .customLong("hls-js-url"),
            help: ArgumentHelp(
                "hls.js for browsers without native HLS in the web client: an http(s) URL (.mjs is loaded as a module).",
                valueName: "url")) var hlsJsURL: String?
        @Option(
            name: .customLong("cors-origin"),
            help: ArgumentHelp(
                "Let web pages on this origin use the API (feed, media, uploads); repeatable, or * for any.",
                valueName: "origin"))
        var corsOrigins: [String] = []
        @Option(
            name: .customLong("media-base-url"),
            help: ArgumentHelp(
                "Where feed items point clients for the library's files: this server's /media/ (the default), or a CDN or object store's URL. The catalog keeps paths, so changing it needs no migration.",
                valueName: "url")) var mediaBaseURL = "/media/"
        @Option(
            name: .long,
            help: "Close a connection that sends nothing for this many seconds (a stalled upload frees its slot).")
        var idleTimeout = 30.0
        @Option(
            name: .long,
            help: "How long viewers' raw events are kept, in days (from 0.01 to 3650); the figures cover this window.")
        var eventsRetention = 7.0
        @Option(
            name: .long,
            help:
                "How long a deleted post's tombstone (its id, the time and the reason) is kept, in days (0 to 3650).")
        var tombstoneRetentionDays = 30.0
        @Option(
            name: .long,
            help: ArgumentHelp(
                "The key file that signs private posts' media URLs (one hex key per line, the first signs; made 0600 when missing). Default: .playback-key in the library directory. Every host serving one catalog needs the same file.",
                valueName: "path"))
        var playbackKeyFile: String?
        @Option(
            name: .long,
            help: "How often viewers' events are rolled up into each video's figures, in seconds (from 1 to 3600).")
        var statsInterval = 60.0
        @Option(
            name: .long,
            help: ArgumentHelp(
                "The feed's order: recent (newest first) or engaging (by viewers' completion and watch time, decayed by age; see docs/analytics.md).",
                valueName: "order"))
        var feedOrder = "recent"
        @OptionGroup var operations: OperationsOptions
        @OptionGroup var worker: WorkerOptions
        @OptionGroup var limits: LimitsOption
        @OptionGroup var quotas: ServeQuotaOptions
        @OptionGroup var viewerSessions: ViewerSessionOptions
        @OptionGroup var webhooks: WebhookOptions
        @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel =
            "info"

        func validate() throws {
            guard (1...64).contains(ioThreads) else { throw ValidationError("--io-threads must be from 1 to 64") }
            // In milliseconds it becomes an Int64: an unbounded value (1e300, inf) trapped the server at start.
            guard (0.1...86_400).contains(idleTimeout) else {
                throw ValidationError("--idle-timeout must be from 0.1 to 86400 seconds, not \(idleTimeout)")
            }
            guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
            guard ["recent", "engaging"].contains(feedOrder) else {
                throw ValidationError("--feed-order must be recent or engaging, not \"\(feedOrder)\"")
            }
            guard (0...3650).contains(tombstoneRetentionDays) else {
                throw ValidationError(
                    "--tombstone-retention-days must be from 0 to 3650, not \(tombstoneRetentionDays)")
            }
            guard (0.01...3650).contains(eventsRetention) else {
                throw ValidationError("--events-retention must be from 0.01 to 3650 days")
            }
            guard (1...3600).contains(statsInterval) else {
                throw ValidationError("--stats-interval must be from 1 to 3600 seconds")
            }
            if let rateLimit, !(rateLimit > 0) { throw ValidationError("--rate-limit must be positive") }
            if let rateBurst, !(rateBurst >= 1) { throw ValidationError("--rate-burst must be at least 1") }
            guard Logger.Level(rawValue: logLevel) != nil else {
                throw ValidationError("--log-level \(logLevel) is not a level")
            }
            for origin in corsOrigins where origin != "*" {
                guard origin.hasPrefix("http://") || origin.hasPrefix("https://"), !origin.dropFirst(8).contains("/")
                else {
                    throw ValidationError(
                        "--cors-origin \(origin) must be * or an origin such as https://app.example.com (scheme, host, optional port; no path)"
                    )
                }
            }
            if let hlsJsURL {
                do { _ = try HLSJSURL(hlsJsURL) } catch { throw ValidationError(error.description) }
            }
            do { _ = try MediaBaseURL(mediaBaseURL) } catch { throw ValidationError(error.description) }
            _ = try readLocation()
            guard (1...604_800).contains(mediaRedirectSeconds) else {
                throw ValidationError(
                    "--media-redirect-seconds must be from 1 to 604800 (a presigned URL lives 7 days at most)")
            }
            guard (0...65_536).contains(mediaCacheMb) else {
                throw ValidationError("--media-cache-mb must be from 0 to 65536 (64 GiB)")
            }
            if S3Location.isS3(library) {
                _ = try objectStore.location(library)
            } else if mediaRedirect {
                throw ValidationError("--media-redirect needs an s3:// library (a directory's files are served here)")
            }
        }

        func readLocation() throws -> DatabaseLocation? {
            guard let databaseRead else { return nil }
            return try CommandLineSecrets.catalog(databaseRead, option: "--database-read")
        }

        func run() async throws {
            let logger = ServerLogging.logger(label: "reel.serve", level: logLevel)
            if S3Location.isS3(library) {
                // A viewer waits for a segment: a store that does not answer becomes a 503 within about a second.
                let client = try await objectStore.client(
                    try objectStore.location(library), retry: Self.mediaRetry, connectTimeout: Self.mediaConnectTimeout)
                let store = S3MediaStore(client: client)
                let media = MediaServing(
                    store: mediaCacheMb > 0 ? CachedMediaStore(store, capacityBytes: mediaCacheMb << 20) : store,
                    redirectExpiry: mediaRedirect ? .seconds(mediaRedirectSeconds) : nil)
                // Uploads and the worker keep the standard retries: a PATCH or a job can wait out a store that is away.
                let storeClient = try await objectStore.client(try objectStore.location(library))
                do {
                    try await CatalogOpener.with(try database.location(), reading: try readLocation(), logger: logger) {
                        catalog in
                        try await serve(catalog, media: media, storeClient: storeClient, logger: logger)
                    }
                } catch {
                    try? await client.shutdown()
                    try? await storeClient.shutdown()
                    throw error
                }
                try await client.shutdown()
                try await storeClient.shutdown()
                return
            }
            try Directory.create(library)
            let location = try database.location()
            try await CatalogOpener.with(location, reading: try readLocation(), logger: logger) { catalog in
                try await serve(catalog, logger: logger)
            }
        }

        /// The whole catalog is open here; each part gets only its roles (feed and job status, uploads and tokens,
        /// the job queue and publishing). With `storeClient`, the library is the store: media, uploads over HTTP and
        /// the inbox's worker all go to it (`storeClient`), and this host keeps only the inbox and its scratch space.
        func serve(
            _ catalog: any CatalogRoles, media: MediaServing? = nil, storeClient: S3Client? = nil, logger: Logger
        ) async throws {
            var server = FeedServer(
                store: catalog,
                media: try media
                    ?? MediaServing(
                        store: DirectoryMediaStore(root: library, linkableFolders: MediaLibrary.publicRoots)),
                rateLimit: rateLimit.map { RateLimit(requestsPerSecond: $0, burst: rateBurst ?? max(1, 2 * $0)) }
            )
            server.webClient = WebClient(hlsJSURL: try hlsJsURL.map { try HLSJSURL($0) })
            server.corsOrigins = corsOrigins
            server.mediaBaseURL = try MediaBaseURL(mediaBaseURL)
            server.idleTimeoutSeconds = idleTimeout
            try operations.apply(to: &server)
            server.viewerEvents = ViewerEventIngest(log: catalog)
            server.eventGate = ViewerEventGate(
                keys: try await viewerSessions.keys(
                    libraryDirectory: storeClient == nil ? library : nil, logger: logger),
                limits: viewerSessions.limits, metrics: server.metricsFactory)
            if feedOrder == "engaging" { server.feedOrder = .engaging(catalog) }
            let engine: any ResumableUploads =
                if let storeClient {
                    S3ResumableUploads(client: storeClient)
                } else {
                    try DirectoryResumableUploads(library: library)
                }
            var uploadConfiguration = UploadConfiguration(uploads: engine, limits: try limits.load())
            uploadConfiguration.quota = quotas.quota
            let uploads = UploadDesk(store: catalog, configuration: uploadConfiguration)
            server.uploads = uploads
            let deleter = PostDeleter(
                catalog: catalog, library: try server.media?.store ?? DirectoryMediaStore(root: library),
                uploads: engine,
                logger: ServerLogging.logger(label: "reel.deletion", level: logLevel))
            server.deleter = deleter
            server.signer = PlaybackSigner(
                keys: try await KeyFile.keys(
                    at: playbackKeyFile ?? (storeClient == nil ? library + "/.playback-key" : nil),
                    purpose: "private posts' media URLs", logger: logger))
            var services: [any Service] = [
                DeletionService(
                    deleter: deleter, retention: .seconds(Int64(tombstoneRetentionDays * 86_400)),
                    logger: ServerLogging.logger(label: "reel.deletion", level: logLevel)),
                UploadExpiryService(
                    desk: uploads, logger: ServerLogging.logger(label: "reel.uploads", level: logLevel)),
                ViewerStatsService(
                    log: catalog, videos: catalog, retention: .milliseconds(Int64(eventsRetention * 86_400_000)),
                    interval: .milliseconds(Int64(statsInterval * 1000)),
                    ranker: feedOrder == "engaging" ? EngagingRanker(catalog: catalog) : nil,
                    logger: ServerLogging.logger(label: "reel.stats", level: logLevel)),
                webhooks.service(
                    outbox: catalog, logger: ServerLogging.logger(label: "reel.webhooks", level: logLevel)),
            ]
            if let inbox {
                var configuration: WorkerConfiguration
                if let storeClient {
                    // This host's inbox; its scratch space beside it (the library itself is the store).
                    configuration = self.worker.configuration(
                        inbox: inbox, scratch: inbox + "/.scratch", library: S3MediaStore(client: storeClient),
                        scratchIsShared: false, limits: limits.limits, once: false)
                } else {
                    configuration = try self.worker.configuration(
                        inbox: inbox, libraryDirectory: library, limits: limits.limits, once: false)
                }
                services.append(try inboxWorker(configuration, catalog: catalog, server: &server))
            }
            try await server.run(host: host, port: port, ioThreads: ioThreads, services: services, logger: logger) {
                listening in
                // The line scripts wait for comes first, then the operations listener's; everything else is JSON on
                // stderr.
                var lines = "listening on http://\(listening.address)\n"
                if let admin = listening.admin { lines += "admin on http://\(admin)\n" }
                FileHandle.standardOutput.write(Data(lines.utf8))
            }
        }
    }
}

extension Reel.Serve {
    /// Three attempts of at most a second's wait for a connection each, within about four seconds in all: a viewer
    /// waiting for a segment is better told 503 and when to come back.
    static let mediaRetry = S3RetryPolicy(maxAttempts: 3, baseSeconds: 0.2, capSeconds: 1)
    static let mediaConnectTimeout = Duration.seconds(1)

    /// The in-process worker of `--inbox`; its disk state goes into `/healthz`.
    func inboxWorker(
        _ configuration: WorkerConfiguration, catalog: any CatalogRoles, server: inout FeedServer
    ) throws -> Worker {
        _ = try limits.load()
        let worker = try Worker(
            configuration: configuration, store: catalog,
            logger: ServerLogging.logger(label: "reel.worker", level: logLevel), metrics: server.metricsFactory)
        let status = worker.status
        server.healthProblem = {
            status.diskFull.map {
                .diskFull(availableBytes: $0.availableBytes, requiredBytes: $0.requiredBytes)
            }
        }
        return worker
    }
}

/// swift-log bootstrapped once per process with the JSON handler.
enum ServerLogging {
    nonisolated(unsafe) private static var bootstrapped = false

    static func logger(label: String, level: String) -> Logger {
        if !bootstrapped {
            bootstrapped = true
            let parsed = Logger.Level(rawValue: level) ?? .info
            LoggingSystem.bootstrap { label in
                var handler = JSONLogHandler(label: label)
                handler.logLevel = parsed
                return handler
            }
        }
        return Logger(label: label)
    }
}
