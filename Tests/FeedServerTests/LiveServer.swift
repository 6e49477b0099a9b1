import Deadlines
import FeedServer
import Hummingbird
import Logging
import ServiceLifecycle

/// `server.application` on loopback, free ports for one test, handing `body` its listeners once all are bound (the
/// public one and, with `adminAddress`, the operations one). The application stops when `body` returns. No test
/// client connects on its own (HummingbirdTesting's `.live` opens one), so a test can count connections.
func withLiveServer(
    _ server: FeedServer, logger: Logger = Logger(label: "test"),
    _ body: @escaping @Sendable (Listening) async throws -> Void
) async throws {
    let listening = OneShot<Listening>()
    let app = server.application(host: "127.0.0.1", port: 0, logger: logger) { listening.settle(.success($0)) }
    let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
    let running = Task<Void, Never> {
        do {
            try await group.run()
            listening.settle(.failure(ServerStopped()))
        } catch {
            listening.settle(.failure(error))
        }
    }
    do {
        let addresses = try await withDeadline(.seconds(60), "the server's listeners to bind") {
            try await listening.value()
        }
        try await body(addresses)
    } catch {
        await stop(group, running)
        throw error
    }
    await stop(group, running)
}

/// Shuts the server down as SIGTERM would, and cancels it if that takes more than 30 s.
private func stop(_ group: ServiceGroup, _ running: Task<Void, Never>) async {
    await group.triggerGracefulShutdown()
    if await value(of: running, upTo: .seconds(30)) == nil { running.cancel() }
}

/// The application ended before it listened.
struct ServerStopped: Error {}
