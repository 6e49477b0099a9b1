import ArgumentParser
import FeedServer
import FileSystem
import Foundation
import Logging
import NIOPosix

/// `reel serve`'s viewer-event options: where the key that signs session tokens lives, and the budgets per session and
/// per address (docs/security.md, "Viewer events").
struct ViewerSessionOptions: ParsableArguments {
    static let keyFileVariable = "REEL_SESSION_KEY_FILE"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The key file that signs viewers' session tokens (one hex key per line, the first signs; created with mode 0600 when missing). Default: $\(keyFileVariable), else .session-key in the library directory. Every host serving one catalog needs the same file.",
            valueName: "path"))
    var sessionKeyFile: String?
    @Option(name: .long, help: "Batches of viewer events a session may send per second.")
    var eventsSessionRate = ViewerEventLimits.standard.perSession.requestsPerSecond
    @Option(name: .long, help: "Batches of viewer events a session may send at once.")
    var eventsSessionBurst = ViewerEventLimits.standard.perSession.burst
    @Option(
        name: .long, help: "Batches of viewer events and new sessions an address (an IPv6 /64) may send per second.")
    var eventsAddressRate = ViewerEventLimits.standard.perAddress.requestsPerSecond
    @Option(name: .long, help: "Batches of viewer events and new sessions an address may send at once.")
    var eventsAddressBurst = ViewerEventLimits.standard.perAddress.burst

    func validate() throws {
        for (name, rate) in [
            ("--events-session-rate", eventsSessionRate), ("--events-address-rate", eventsAddressRate),
        ] {
            guard rate > 0, rate.isFinite else { throw ValidationError("\(name) must be a positive number") }
        }
        for (name, burst) in [
            ("--events-session-burst", eventsSessionBurst), ("--events-address-burst", eventsAddressBurst),
        ] {
            guard burst >= 1, burst.isFinite else { throw ValidationError("\(name) must be at least 1") }
        }
    }

    var limits: ViewerEventLimits {
        ViewerEventLimits(
            perSession: RateLimit(requestsPerSecond: eventsSessionRate, burst: eventsSessionBurst),
            perAddress: RateLimit(requestsPerSecond: eventsAddressRate, burst: eventsAddressBurst))
    }

    /// The signing keys: from `--session-key-file` or `$REEL_SESSION_KEY_FILE`, else from `.session-key` in a
    /// directory library; either file is made (0600, one random key) when missing. With an `s3://` library and
    /// neither, a random key in memory, with a warning: its tokens die with the process and no other host takes them.
    /// The file is read on NIO's thread pool, not on Swift's. A file that cannot be made because the disk is full
    /// gives a key in memory, with a warning, as with `s3://`: the server still starts and serves.
    /// - Throws: `ValidationError` for a file that cannot be read or made, is open to others, or holds no key.
    func keys(libraryDirectory: String?, logger: Logger) async throws -> ViewerSessionKeys {
        try await KeyFile.keys(
            at: sessionKeyFile ?? ProcessInfo.processInfo.environment[Self.keyFileVariable]
                ?? libraryDirectory.map { $0 + "/.session-key" },
            purpose: "viewers' session tokens", logger: logger)
    }
}
