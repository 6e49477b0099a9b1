public import ServiceLifecycle
internal import Foundation

/// The worker as a service beside the HTTP server (`reel serve --inbox`): graceful shutdown stops it claiming,
/// lets running jobs finish within the grace period, and only then lets the server go.
public struct WorkerService: Service {
    let worker: Worker

    public init(worker: Worker) { self.worker = worker }

    public func run() async throws {
        let stop = StopFlag()
        let worker = self.worker
        try await withGracefulShutdownHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // The loop blocks (it polls job processes), so it gets its own thread, not the concurrency pool.
                Thread.detachNewThread {
                    do {
                        try worker.run(shouldStop: { stop.isSet })
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        } onGracefulShutdown: {
            stop.set()
        }
    }
}
