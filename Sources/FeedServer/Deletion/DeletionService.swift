internal import Catalog
internal import Foundation
package import Logging
package import ServiceLifecycle

/// Finishes deletions a crash or an unreachable store interrupted (their files), and forgets tombstones past the
/// operator's retention, every `interval` for as long as the server runs.
package struct DeletionService: Service {
    let deleter: PostDeleter
    /// How long a tombstone is kept after its files are gone (`reel serve --tombstone-retention-days`).
    let retention: Duration
    let interval: Duration
    let logger: Logger

    package init(deleter: PostDeleter, retention: Duration, interval: Duration = .seconds(30), logger: Logger) {
        self.deleter = deleter
        self.retention = retention
        self.interval = interval
        self.logger = logger
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                let finished = await deleter.finishPending(now: now)
                if finished > 0 { logger.info("interrupted deletions finished", metadata: ["posts": "\(finished)"]) }
                let keptFor = retention.components.seconds * 1000
                do {
                    let purged = try await deleter.catalog.purgeTombstones(deletedBefore: now - keptFor)
                    if purged > 0 { logger.info("old tombstones forgotten", metadata: ["count": "\(purged)"]) }
                } catch {
                    logger.error("cannot forget old tombstones yet", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
