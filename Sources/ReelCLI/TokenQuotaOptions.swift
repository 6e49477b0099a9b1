import ArgumentParser
import Catalog

/// A token's own upload quota, for `reel token create` and `reel token set`: each a whole number, or `default` for
/// the server's (`reel serve --token-concurrent-uploads`, `--token-bytes-in-flight-mb`, `--token-uploads-per-hour`).
struct TokenQuotaOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Unfinished uploads this token may have at once (0 stops its uploads); default: the server's.",
            valueName: "n|default"))
    var concurrentUploads: String?
    @Option(
        name: .customLong("bytes-in-flight-mb"),
        help: ArgumentHelp(
            "The declared sizes of this token's unfinished uploads together, in MB; default: the server's.",
            valueName: "mb|default"))
    var bytesInFlightMB: String?
    @Option(
        name: .long,
        help: ArgumentHelp("Uploads this token may start in an hour; default: the server's.", valueName: "n|default"))
    var uploadsPerHour: String?

    var isEmpty: Bool { concurrentUploads == nil && bytesInFlightMB == nil && uploadsPerHour == nil }

    func validate() throws { _ = try applied(to: UploadQuota()) }

    /// `quota` with the limits given here set (or cleared to the server's default).
    func applied(to quota: UploadQuota) throws -> UploadQuota {
        var quota = quota
        if let text = concurrentUploads { quota.concurrentUploads = try Self.count(text, "--concurrent-uploads") }
        if let text = bytesInFlightMB {
            quota.bytesInFlight = try Self.count(text, "--bytes-in-flight-mb").map { Int64($0) * 1_000_000 }
        }
        if let text = uploadsPerHour { quota.uploadsPerHour = try Self.count(text, "--uploads-per-hour") }
        return quota
    }

    /// A limit as given: nil for `default`.
    static func count(_ text: String, _ flag: String) throws -> Int? {
        if text == "default" { return nil }
        guard let value = Int(text), value >= 0, value <= 1_000_000_000 else {
            throw ValidationError("\(flag) must be a whole number from 0 to 1000000000, or \"default\"")
        }
        return value
    }
}
