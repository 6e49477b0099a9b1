import ArgumentParser
import FeedServer

/// `reel serve`'s operations surface and request deadlines: where `/metrics` listens apart from viewers, how fast a
/// request must arrive, and how many connections the public port keeps (docs/security.md).
struct OperationsOptions: ParsableArguments {
    @Option(
        name: .customLong("admin-listen"),
        help: ArgumentHelp(
            "Serve /metrics (and /healthz, /readyz) on this address, apart from viewers: loopback by default, port 0 picks a free one (printed as \"admin on ...\"); off serves metrics nowhere. The public port never serves /metrics.",
            valueName: "host:port|off"))
    var adminListen = "127.0.0.1:0"
    @Option(
        name: .long,
        help:
            "Seconds a request's head may take to arrive, and a body's allowance before --min-body-rate (408 and close when late; from 0.1 to 3600)."
    )
    var requestTimeout = 20.0
    @Option(
        name: .long,
        help:
            "Bytes per second a request body must keep up on average after --request-timeout (a tus PATCH may take as long as it needs at this rate; from 1 to 1e9)."
    )
    var minBodyRate = 500
    @Option(
        name: .long,
        help: "Open connections the public port keeps at once; one more is answered 503 and closed (0: no cap).")
    var maxConnections = 1024

    func validate() throws {
        _ = try adminAddress()
        guard (0.1...3600).contains(requestTimeout) else {
            throw ValidationError("--request-timeout must be from 0.1 to 3600 seconds, not \(requestTimeout)")
        }
        guard (1...1_000_000_000).contains(minBodyRate) else {
            throw ValidationError("--min-body-rate must be from 1 to 1000000000 bytes per second")
        }
        guard (0...1_000_000).contains(maxConnections) else {
            throw ValidationError("--max-connections must be from 0 (no cap) to 1000000")
        }
    }

    /// The operations listener's address, or nil for `off`.
    func adminAddress() throws -> ListenAddress? {
        guard adminListen != "off" else { return nil }
        do { return try ListenAddress(adminListen) } catch { throw ValidationError("--admin-listen \(error)") }
    }

    func apply(to server: inout FeedServer) throws {
        server.adminAddress = try adminAddress()
        server.requestDeadlines = RequestDeadlines(
            timeout: .milliseconds(Int64(requestTimeout * 1000)), minimumBodyRate: minBodyRate)
        server.maxConnections = maxConnections == 0 ? nil : maxConnections
    }
}
