import ArgumentParser
import Catalog
import Foundation
import Logging
import Webhooks

/// How `reel serve` delivers webhooks (`reel webhook add` registers endpoints).
struct WebhookOptions: ParsableArguments {
    @Option(name: .long, help: "One delivery attempt's bound (connect, send, the answer's head), in seconds (1 to 60).")
    var webhookTimeoutSeconds = 10.0
    @Option(name: .long, help: "The wait after a delivery's first failure, in seconds (0.1 to 3600); it doubles.")
    var webhookBackoffSeconds = 5.0
    @Option(name: .long, help: "The longest wait between a delivery's attempts, in seconds (0.1 to 86400).")
    var webhookBackoffMaxSeconds = 3600.0
    @Option(name: .long, help: "How long a delivery is tried before it is abandoned, in hours (0.001 to 720).")
    var webhookRetryHours = 24.0

    func validate() throws {
        guard (1...60).contains(webhookTimeoutSeconds) else {
            throw ValidationError("--webhook-timeout-seconds must be from 1 to 60, not \(webhookTimeoutSeconds)")
        }
        guard (0.1...3600).contains(webhookBackoffSeconds) else {
            throw ValidationError("--webhook-backoff-seconds must be from 0.1 to 3600, not \(webhookBackoffSeconds)")
        }
        guard (0.1...86_400).contains(webhookBackoffMaxSeconds), webhookBackoffMaxSeconds >= webhookBackoffSeconds
        else {
            throw ValidationError(
                "--webhook-backoff-max-seconds must be from --webhook-backoff-seconds to 86400, not \(webhookBackoffMaxSeconds)"
            )
        }
        guard (0.001...720).contains(webhookRetryHours) else {
            throw ValidationError("--webhook-retry-hours must be from 0.001 to 720, not \(webhookRetryHours)")
        }
    }

    func service(outbox: any WebhookOutbox, logger: Logger) -> WebhookService {
        var generator = SystemRandomNumberGenerator()
        let owner =
            "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):"
            + String(generator.next() as UInt64, radix: 36)
        return WebhookService(
            dispatcher: WebhookDispatcher(
                outbox: outbox, sender: WebhookSender(timeout: Self.duration(webhookTimeoutSeconds)),
                backoff: WebhookBackoff(
                    first: Self.duration(webhookBackoffSeconds), longest: Self.duration(webhookBackoffMaxSeconds),
                    window: Self.duration(webhookRetryHours * 3600)),
                owner: owner, logger: logger))
    }

    static func duration(_ seconds: Double) -> Duration { .milliseconds(Int64((seconds * 1000).rounded())) }
}
