internal import Logging
internal import Metrics
internal import Synchronization

/// `--max-connections`: how many connections the public listener keeps open at once. One past the cap is answered
/// 503 and closed before anything of it is read, and the first refusal says so in the log, then at most one line a
/// minute with how many were refused meanwhile (a flood of connections must not become a flood of log lines).
/// The operations listener has no cap, so metrics can still be read while the cap is hit.
final class ConnectionCap: Sendable {
    let maximum: Int
    private let logger: Logger
    private let refusals: Counter
    private let openGauge: Gauge
    /// How long refusals are counted silently after a log line.
    static let logInterval: Duration = .seconds(60)

    private struct State {
        var open = 0
        var refusedSinceLog = 0
        var lastLog: ContinuousClock.Instant?
    }
    private let state = Mutex(State())

    init(maximum: Int, logger: Logger, factory: any MetricsFactory) {
        self.maximum = maximum
        self.logger = logger
        refusals = Counter(label: "reel_http_connections_refused_total", factory: factory)
        openGauge = Gauge(label: "reel_http_connections_open", factory: factory)
    }

    /// Takes a place for a new connection, or refuses it (and maybe logs that the cap is hit).
    /// - Returns: whether the connection may be served; if so, `release()` must follow when it closes.
    func admit() -> Bool {
        let now = ContinuousClock.now
        let (admitted, open, report) = state.withLock { state -> (Bool, Int, Int?) in
            if state.open < maximum {
                state.open += 1
                return (true, state.open, nil)
            }
            state.refusedSinceLog += 1
            guard state.lastLog.map({ now - $0 >= Self.logInterval }) ?? true else { return (false, state.open, nil) }
            state.lastLog = now
            defer { state.refusedSinceLog = 0 }
            return (false, state.open, state.refusedSinceLog)
        }
        openGauge.record(open)
        guard !admitted else { return true }
        refusals.increment()
        if let report {
            logger.warning(
                "connection cap reached: refusing new connections with 503 (raise --max-connections if this is load)",
                metadata: [
                    "max_connections": "\(maximum)", "refused": "\(report)",
                    "next_report_within": "\(Self.logInterval)",
                ])
        }
        return false
    }

    /// Gives back the place of a connection that `admit()` took, once it has closed.
    func release() {
        let open = state.withLock { state in
            state.open -= 1
            return state.open
        }
        openGauge.record(open)
    }
}
