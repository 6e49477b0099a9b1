internal import Synchronization

/// A result that many racers may offer and one waiter takes: the first `settle` wins, later ones are ignored, and the
/// waiter's continuation is resumed exactly once, whether the result came before or after it started waiting, or
/// its task was cancelled. The racers (a body, a timer, a connection's close) never await each other, so one that
/// never returns cannot hold the waiter.
package final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        case open
        case waiting(CheckedContinuation<Value, any Error>)
        case settled(Result<Value, any Error>)
        case taken
    }

    private let state = Mutex(State.open)

    package init() {}

    /// Offers the result. - Returns: true when it was the first (it is the one the waiter gets).
    @discardableResult
    package func settle(_ result: Result<Value, any Error>) -> Bool {
        let (first, waiter): (Bool, CheckedContinuation<Value, any Error>?) = state.withLock { state in
            switch state {
            case .open:
                state = .settled(result)
                return (true, nil)
            case let .waiting(continuation):
                state = .taken
                return (true, continuation)
            case .settled, .taken:
                return (false, nil)
            }
        }
        waiter?.resume(with: result)
        return first
    }

    /// Whether a result has been offered.
    package var isSettled: Bool {
        state.withLock { state in
            if case .open = state { return false }
            if case .waiting = state { return false }
            return true
        }
    }

    /// The first result offered. Cancelling the waiting task settles it with `CancellationError` (then the racers'
    /// results are ignored); `onCancel` runs too, so the caller can stop its racers.
    package func value(onCancel: @escaping @Sendable () -> Void = {}) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let ready: Result<Value, any Error>? = state.withLock { state in
                    switch state {
                    case .open:
                        state = .waiting(continuation)
                        return nil
                    case let .settled(result):
                        state = .taken
                        return result
                    case .waiting, .taken:
                        preconditionFailure("OneShot has one waiter")
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            settle(.failure(CancellationError()))
            onCancel()
        }
    }
}
