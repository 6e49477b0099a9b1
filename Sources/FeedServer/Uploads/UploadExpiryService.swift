internal import Foundation
package import Logging
package import ServiceLifecycle

/// Removes expired partial uploads (tus expiration) once a minute, for as long as the server runs.
package struct UploadExpiryService: Service {
    let desk: UploadDesk
    let interval: Duration
    let logger: Logger

    package init(desk: UploadDesk, interval: Duration = .seconds(60), logger: Logger) {
        self.desk = desk
        self.interval = interval
        self.logger = logger
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let removed = try await desk.removeExpired(now: Int64(Date().timeIntervalSince1970 * 1000))
                    if removed > 0 { logger.info("expired uploads removed", metadata: ["count": "\(removed)"]) }
                } catch {
                    logger.error("cannot remove expired uploads yet", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
