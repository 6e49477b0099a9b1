import ArgumentParser
import Catalog
import CatalogEngines
import Foundation
import Logging
import Webhooks

extension Reel {
    /// `reel webhook`: where Reel posts `video.*` events (docs/webhooks.md). `reel serve` delivers them.
    struct Webhook: AsyncParsableCommand {
        static let logger = Logger(label: "reel.webhook")
        static let configuration = CommandConfiguration(
            abstract: "Add, list and remove webhook endpoints (signed video.* events, delivered by reel serve).",
            subcommands: [Add.self, List.self, Rotate.self, Remove.self]
        )

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Register an endpoint and print its signing secret once.",
                discussion: """
                    Events: video.playable, video.published, video.rejected, video.failed, video.deleted, or all. \
                    Deliveries are POSTs of JSON signed in the Reel-Signature header; a receiver answers 2xx, or \
                    the delivery is tried again with exponential back-off for reel serve's --webhook-retry-hours.
                    """)
            @OptionGroup var database: DatabaseOption
            @Argument(help: "An http or https URL.") var url: String
            @Option(
                name: .long,
                help: ArgumentHelp("The events to send, comma-separated, or all.", valueName: "video.published,..."))
            var events: String
            @Flag(
                name: .long,
                help:
                    "Allow loopback, private and link-local addresses (the operator's own network); refused otherwise.")
            var allowPrivateAddresses = false

            func kinds() throws -> Set<WebhookEvent.Kind> {
                if events == "all" { return Set(WebhookEvent.Kind.allCases) }
                var kinds = Set<WebhookEvent.Kind>()
                for name in events.split(separator: ",", omittingEmptySubsequences: false) {
                    let name = name.trimmingCharacters(in: .whitespaces)
                    guard let kind = WebhookEvent.Kind(rawValue: name) else {
                        throw ValidationError(
                            "--events: \"\(name.prefix(60))\" is not an event; choose from "
                                + WebhookEvent.Kind.allCases.map(\.rawValue).joined(separator: ", ") + ", or all")
                    }
                    kinds.insert(kind)
                }
                return kinds
            }

            func validate() throws {
                do { _ = try WebhookURL(url) } catch { throw ValidationError("\(url.prefix(100)): \(error)") }
                _ = try kinds()
            }

            func run() async throws {
                let location = try database.location()
                let target = try WebhookURL(url)
                if !allowPrivateAddresses {
                    switch await WebhookSender.address(of: target.host, allowingPrivate: false) {
                    case .success: break
                    case let .failure(refusal) where refusal.message.hasPrefix("refused"):
                        throw ValidationError(refusal.message)
                    case let .failure(refusal):
                        printError("warning: \(refusal.message); every delivery checks the address again")
                    }
                }
                let endpoint = WebhookEndpoint(
                    id: WebhookSecret.endpointID(), url: target.text, events: try kinds(),
                    secret: WebhookSecret.generate(), allowsPrivateAddresses: allowPrivateAddresses,
                    createdAt: Int64(Date().timeIntervalSince1970 * 1000))
                try await CatalogOpener.with(location, connections: 1, logger: Reel.Webhook.logger) {
                    (outbox: any WebhookOutbox) in
                    try await outbox.addWebhookEndpoint(endpoint)
                }
                print(endpoint.secret)
                printError(
                    "webhook endpoint \(endpoint.id) added for \(WebhookEndpoint.eventsColumn(endpoint.events)); "
                        + "its signing secret is shown only this once")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List endpoints with their deliveries (never the secrets).")
            @OptionGroup var database: DatabaseOption
            @Flag(name: .long, help: "Print JSON.") var json = false

            func run() async throws {
                let location = try database.location()
                let endpoints = try await CatalogOpener.with(location, connections: 1, logger: Reel.Webhook.logger) {
                    (outbox: any WebhookOutbox) in
                    try await outbox.webhookEndpoints()
                }
                let rows = endpoints.map(WebhookRow.init)
                if json {
                    JSONOutput.print(rows)
                    return
                }
                for row in rows {
                    print(
                        "\(row.id)  \(row.url)  events \(row.events.joined(separator: ","))"
                            + "  pending \(row.pending)  delivered \(row.delivered)  abandoned \(row.abandoned)"
                            + (row.allowPrivateAddresses ? "  private addresses allowed" : "")
                            + (row.lastError.map { "  last error: \($0)" } ?? ""))
                }
            }
        }

        struct Rotate: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Give an endpoint a new signing secret, printed once; the old one signs too for a while.",
                discussion: """
                    Until --keep-previous-hours have passed, every delivery carries a v1 signature under each secret, \
                    so the receiver can switch to the new one without refusing a delivery. 0 drops the old one at once \
                    (a leaked secret).
                    """)
            @OptionGroup var database: DatabaseOption
            @Argument(help: "The endpoint's id (whe_...).") var id: String
            @Option(name: .long, help: "How long the replaced secret still signs, in hours (0 to 720).")
            var keepPreviousHours = 24.0

            func validate() throws {
                guard (0...720).contains(keepPreviousHours) else {
                    throw ValidationError("--keep-previous-hours must be from 0 to 720, not \(keepPreviousHours)")
                }
            }

            func run() async throws {
                let location = try database.location()
                let (id, secret) = (self.id, WebhookSecret.generate())
                let until = Int64(Date().timeIntervalSince1970 * 1000) + Int64(keepPreviousHours * 3_600_000)
                let rotated = try await CatalogOpener.with(location, connections: 1, logger: Reel.Webhook.logger) {
                    (outbox: any WebhookOutbox) in
                    try await outbox.rotateWebhookSecret(id: id, to: secret, keepingPreviousUntil: until)
                }
                guard rotated else { throw ValidationError("no webhook endpoint \"\(id)\" in \(location)") }
                print(secret)
                printError(
                    "webhook endpoint \(id) has a new signing secret, shown only this once; "
                        + (keepPreviousHours > 0
                            ? "the previous one also signs until \(TokenRow.iso(until))"
                            : "the previous one no longer signs"))
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove an endpoint; what is still owed to it is not sent.")
            @OptionGroup var database: DatabaseOption
            @Argument(help: "The endpoint's id (whe_...).") var id: String

            func run() async throws {
                let location = try database.location()
                let id = self.id
                let removed = try await CatalogOpener.with(location, connections: 1, logger: Reel.Webhook.logger) {
                    (outbox: any WebhookOutbox) in
                    try await outbox.removeWebhookEndpoint(id: id)
                }
                guard removed else { throw ValidationError("no webhook endpoint \"\(id)\" in \(location)") }
                print("removed webhook endpoint \(id)")
            }
        }
    }
}

/// One endpoint as `reel webhook list` shows it.
struct WebhookRow: Encodable {
    let id: String
    let url: String
    let events: [String]
    let allowPrivateAddresses: Bool
    let createdAt: String
    let pending: Int
    let delivered: Int
    let abandoned: Int
    let lastError: String?

    init(_ status: WebhookEndpointStatus) {
        id = status.endpoint.id
        url = status.endpoint.url
        events = WebhookEvent.Kind.allCases.filter(status.endpoint.events.contains).map(\.rawValue)
        allowPrivateAddresses = status.endpoint.allowsPrivateAddresses
        createdAt = TokenRow.iso(status.endpoint.createdAt)
        pending = status.pending
        delivered = status.delivered
        abandoned = status.abandoned
        lastError = status.lastError
    }

    enum CodingKeys: String, CodingKey {
        case id, url, events, pending, delivered, abandoned
        case allowPrivateAddresses = "allow_private_addresses"
        case createdAt = "created_at"
        case lastError = "last_error"
    }
}
