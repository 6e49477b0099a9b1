import ArgumentParser
import FeedServer

/// `reel serve`'s operations surface: where `/metrics` listens apart from viewers (docs/security.md).
struct OperationsOptions: ParsableArguments {
    @Option(
        name: .customLong("admin-listen"),
        help: ArgumentHelp(
            "Serve /metrics (and /healthz, /readyz) on this address, apart from viewers: loopback by default, port 0 picks a free one (printed as \"admin on ...\"); off serves metrics nowhere. The public port never serves /metrics.",
            valueName: "host:port|off"))
    var adminListen = "127.0.0.1:0"

    func validate() throws {
        _ = try adminAddress()
    }

    /// The operations listener's address, or nil for `off`.
    func adminAddress() throws -> ListenAddress? {
        guard adminListen != "off" else { return nil }
        do { return try ListenAddress(adminListen) } catch { throw ValidationError("--admin-listen \(error)") }
    }

    func apply(to server: inout FeedServer) throws {
        server.adminAddress = try adminAddress()
    }
}
