import ArgumentParser
import Catalog
import CatalogEngines
import FeedServer
import Foundation
import Logging
import MediaModel

extension Reel {
    /// `reel token`: who may upload over HTTP. A token is printed once; the catalog keeps its SHA-256 only.
    struct Token: AsyncParsableCommand {
        /// Only the catalog's own messages (a migration, a lost connection) go through it, to stderr.
        static let logger = Logger(label: "reel.token")
        static let configuration = CommandConfiguration(
            abstract: "Create, list and revoke upload tokens (Authorization: Bearer for /v1/uploads).",
            subcommands: [Create.self, List.self, Set.self, Revoke.self]
        )

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Make a token and print it once.")
            @OptionGroup var database: DatabaseOption
            @Option(name: .long, help: "A unique name for the token (who or what uses it).") var name: String
            @Option(name: .long, help: "Requests per second for this token's uploads (burst 2×); no limit by default.")
            var rateLimit: Double?
            @OptionGroup var quota: TokenQuotaOptions
            @Flag(name: .long, help: "An operator's token: it may delete any post (DELETE /v1/videos/{id}).")
            var admin = false

            func validate() throws {
                guard !name.isEmpty, name.count <= 100, !name.contains(where: \.isNewline) else {
                    throw ValidationError("--name must be 1 to 100 characters on one line")
                }
                if let rateLimit, !(rateLimit > 0) { throw ValidationError("--rate-limit must be positive") }
            }

            func run() async throws {
                let location = try database.location()
                let (secret, hash) = try BearerToken.generate()
                let id = LibraryLayout.newID()
                let token = UploadToken(
                    id: id, name: name, hash: hash, rateLimit: rateLimit,
                    createdAt: Int64(Date().timeIntervalSince1970 * 1000), quota: try quota.applied(to: UploadQuota()),
                    isAdmin: admin)
                let failure = try await CatalogOpener.with(location, connections: 1, logger: Reel.Token.logger) {
                    (registry: any TokenRegistry) -> CatalogError? in
                    do {
                        try await registry.createToken(token)
                        return nil
                    } catch let error as CatalogError {
                        return error
                    }
                }
                if let failure {
                    guard failure.kind == .duplicate else { throw failure }
                    throw ValidationError(
                        "a token named \"\(name)\" already exists in \(location) (reel token list shows them)")
                }
                print(secret)
                printError(
                    "\(admin ? "admin " : "")token \"\(name)\" (id \(id)) created; it is shown only this once")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List tokens (never the tokens themselves).")
            @OptionGroup var database: DatabaseOption
            @Flag(name: .long, help: "Print JSON.") var json = false

            func run() async throws {
                let location = try database.location()
                let tokens = try await CatalogOpener.with(location, connections: 1, logger: Reel.Token.logger) {
                    (registry: any TokenRegistry) in
                    try await registry.tokens()
                }
                if json {
                    JSONOutput.print(tokens.map(TokenRow.init))
                    return
                }
                func padded(_ text: String, _ width: Int) -> String {
                    text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
                }
                print(
                    padded("id", 13), padded("name", 24), padded("rate limit", 11), padded("open", 8),
                    padded("in flight", 10), padded("per hour", 9), padded("admin", 6), padded("created", 21), "revoked"
                )
                func limit(_ value: Int64?, _ unit: String = "") -> String { value.map { "\($0)\(unit)" } ?? "default" }
                for token in tokens {
                    let row = TokenRow(token)
                    print(
                        padded(row.id, 13), padded(row.name, 24),
                        padded(row.rateLimit.map { String(format: "%g/s", $0) } ?? "none", 11),
                        padded(limit(row.concurrentUploads.map(Int64.init)), 8),
                        padded(limit(row.bytesInFlight.map { $0 / 1_000_000 }, " MB"), 10),
                        padded(limit(row.uploadsPerHour.map(Int64.init)), 9), padded(row.admin ? "yes" : "no", 6),
                        padded(row.createdAt, 21), row.revokedAt ?? "-")
                }
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Revoke a token by name or id; its requests get 401 from then on.")
            @OptionGroup var database: DatabaseOption
            @Argument(help: "The token's name or id.") var token: String

            func run() async throws {
                let location = try database.location()
                let name = token
                let revoked = try await CatalogOpener.with(location, connections: 1, logger: Reel.Token.logger) {
                    (registry: any TokenRegistry) in
                    try await registry.revokeToken(name, now: Int64(Date().timeIntervalSince1970 * 1000))
                }
                guard let revoked else {
                    throw ValidationError("no token named or with id \"\(token)\" in \(location)")
                }
                print("revoked token \"\(revoked.name)\" (id \(revoked.id))")
            }
        }
    }
}

/// One token as `reel token list` shows it.
struct TokenRow: Encodable {
    let id: String
    let name: String
    let rateLimit: Double?
    /// The token's own quota; nil is the server's default (`reel serve --token-...`).
    let concurrentUploads: Int?
    let bytesInFlight: Int64?
    let uploadsPerHour: Int?
    let createdAt: String
    let revokedAt: String?
    let admin: Bool

    enum CodingKeys: String, CodingKey {
        case id, name
        case rateLimit = "rate_limit"
        case concurrentUploads = "concurrent_uploads"
        case bytesInFlight = "bytes_in_flight"
        case uploadsPerHour = "uploads_per_hour"
        case createdAt = "created_at"
        case revokedAt = "revoked_at"
        case admin
    }

    /// The quota's nil limits as JSON nulls ("the server's default"); a missing rate limit or revocation is left out.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(rateLimit, forKey: .rateLimit)
        try container.encode(concurrentUploads, forKey: .concurrentUploads)
        try container.encode(bytesInFlight, forKey: .bytesInFlight)
        try container.encode(uploadsPerHour, forKey: .uploadsPerHour)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(revokedAt, forKey: .revokedAt)
        try container.encode(admin, forKey: .admin)
    }

    init(_ token: UploadToken) {
        id = token.id
        name = token.name
        rateLimit = token.rateLimit
        concurrentUploads = token.quota.concurrentUploads
        bytesInFlight = token.quota.bytesInFlight
        uploadsPerHour = token.quota.uploadsPerHour
        createdAt = Self.iso(token.createdAt)
        revokedAt = token.revokedAt.map(Self.iso)
        admin = token.isAdmin
    }

    static func iso(_ milliseconds: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
