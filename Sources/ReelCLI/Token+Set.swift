import ArgumentParser
import Catalog
import CatalogEngines

extension Reel.Token {
    /// `reel token set NAME`: changes a token's rate limit and upload quota; what is not given stays as it was.
    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a token's rate limit or upload quota (by name or id); reel token list shows them.")
        @OptionGroup var database: DatabaseOption
        @Argument(help: "The token's name or id.") var token: String
        @Option(
            name: .long,
            help: ArgumentHelp("Requests per second for this token's uploads (burst 2×), or none.", valueName: "r|none")
        )
        var rateLimit: String?
        @OptionGroup var quota: TokenQuotaOptions

        func validate() throws {
            guard rateLimit != nil || !quota.isEmpty else {
                throw ValidationError(
                    "nothing to set: give --rate-limit, --concurrent-uploads, --bytes-in-flight-mb or --uploads-per-hour"
                )
            }
            _ = try parsedRateLimit(current: nil)
        }

        /// `--rate-limit` as given (nil for none), or `current` when it was not given.
        func parsedRateLimit(current: Double?) throws -> Double? {
            guard let rateLimit else { return current }
            if rateLimit == "none" { return nil }
            guard let rate = Double(rateLimit), rate > 0, rate.isFinite else {
                throw ValidationError("--rate-limit must be a positive number of requests per second, or none")
            }
            return rate
        }

        func run() async throws {
            let location = try database.location()
            let name = token
            let all = try await CatalogOpener.with(location, connections: 1, logger: Reel.Token.logger) {
                (registry: any TokenRegistry) in try await registry.tokens()
            }
            guard let current = all.first(where: { $0.name == name }) ?? all.first(where: { $0.id == name }) else {
                throw ValidationError("no token named or with id \"\(token)\" in \(location)")
            }
            let rate = try parsedRateLimit(current: current.rateLimit)
            let quota = try quota.applied(to: current.quota)
            let updated = try await CatalogOpener.with(location, connections: 1, logger: Reel.Token.logger) {
                (registry: any TokenRegistry) in
                try await registry.setTokenLimits(current.id, rateLimit: rate, quota: quota)
            }
            guard let updated else { throw ValidationError("token \"\(token)\" is gone from \(location)") }
            JSONOutput.print(TokenRow(updated))
        }
    }
}
