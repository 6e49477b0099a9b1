internal import Synchronization

/// Where a server listens, once all its listeners are bound: what `reel serve` prints.
package struct Listening: Sendable, Equatable {
    /// The public listener: the feed, media, uploads, events.
    package var address: ListenAddress
    /// The operations listener (`/metrics`), when there is one.
    package var admin: ListenAddress?
}

/// Gathers the listeners' "bound" reports, which come in either order, and hands out the whole set once: to the
/// report that completes it.
final class ListenerReports: Sendable {
    private let expectsAdmin: Bool
    private let state = Mutex<(server: ListenAddress?, admin: ListenAddress?, done: Bool)>((nil, nil, false))

    init(expectsAdmin: Bool) { self.expectsAdmin = expectsAdmin }

    /// The public listener is bound; returns the whole set if this completes it.
    func server(_ address: ListenAddress) -> Listening? {
        state.withLock { state in
            state.server = address
            return complete(&state)
        }
    }

    /// The operations listener is bound; returns the whole set if this completes it.
    func admin(_ address: ListenAddress) -> Listening? {
        state.withLock { state in
            state.admin = address
            return complete(&state)
        }
    }

    private func complete(_ state: inout (server: ListenAddress?, admin: ListenAddress?, done: Bool)) -> Listening? {
        guard !state.done, let server = state.server, state.admin != nil || !expectsAdmin else { return nil }
        state.done = true
        return Listening(address: server, admin: state.admin)
    }
}
