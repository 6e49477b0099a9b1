/// How long a client may take to send a request (`--request-timeout`, `--min-body-rate`), after Apache's
/// mod_reqtimeout: the head must arrive within `timeout` of its first byte; the body gets `timeout` and one more
/// second for every `minimumBodyRate` bytes it has delivered. A request that falls behind is answered 408 (when no
/// other response is being written on the connection) and its connection closed.
///
/// There is no total deadline for a body: a 50 MB tus PATCH over a slow link takes as long as it takes while it keeps
/// up the minimum rate, and a body trickled a byte every 2 s is cut off after about `timeout`. Only time in which the
/// server is waiting for the client counts: while the server itself holds reads back (a handler writing an upload
/// chunk to disk or to the object store), the clock stops.
package struct RequestDeadlines: Sendable, Equatable {
    /// The head's whole allowance, and the body's before its bytes earn more.
    package var timeout: Duration
    /// Bytes per second a body must keep up on average (each byte earns 1/rate s of allowance).
    package var minimumBodyRate: Int

    package static let `default` = RequestDeadlines(timeout: .seconds(20), minimumBodyRate: 500)

    package init(timeout: Duration, minimumBodyRate: Int) {
        self.timeout = timeout
        self.minimumBodyRate = minimumBodyRate
    }

    /// What a body that has delivered `bytes` may have spent waiting in all.
    func bodyAllowance(after bytes: Int) -> Duration {
        timeout + .seconds(Double(bytes) / Double(max(1, minimumBodyRate)))
    }
}
