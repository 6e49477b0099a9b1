/// The catalog, on whichever engine holds it: SQLite (`SQLiteCatalogEngine`, the embedded default) or PostgreSQL
/// (`PostgresCatalog.PostgresCatalogEngine`, for many hosts). It is made of roles so that each consumer asks only for
/// the ones it uses and its signature says what it may touch: the feed server reads the feed and job status
/// (`JobStatusReading`, the part of `JobQueue` it needs) and takes uploads and tokens; the worker runs the job queue
/// and publishes. One conformance suite per role runs unchanged against both engines. Every failure arrives as a
/// `CatalogError`. Every engine answers off the concurrency pool: SQLite through GRDB's async access (its own
/// dispatch queues), PostgreSQL over the network.
///
/// Seeding (`CatalogSeeding`) is not part of it: only tests, benchmarks and `reel db seed` write outside a job.
package typealias CatalogRoles =
    FeedReading & JobQueue & Publishing & UploadLedger & TokenRegistry & ViewerEventLog & FeedRanking & PostRemoval
    & PostAccess & WebhookOutbox
