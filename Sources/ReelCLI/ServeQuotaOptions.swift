import ArgumentParser
import Catalog

/// The upload quota of every token that has none of its own (`reel token set`): `reel serve`'s defaults.
struct ServeQuotaOptions: ParsableArguments {
    @Option(name: .long, help: "Unfinished uploads one token may have at once, unless the token has its own limit.")
    var tokenConcurrentUploads = 10
    @Option(
        name: .customLong("token-bytes-in-flight-mb"),
        help:
            "The declared sizes of one token's unfinished uploads together, in MB, unless the token has its own limit.")
    var tokenBytesInFlightMB = 500
    @Option(name: .long, help: "Uploads one token may start in an hour, unless the token has its own limit.")
    var tokenUploadsPerHour = 100

    func validate() throws {
        for (flag, value) in [
            ("--token-concurrent-uploads", tokenConcurrentUploads),
            ("--token-bytes-in-flight-mb", tokenBytesInFlightMB),
            ("--token-uploads-per-hour", tokenUploadsPerHour),
        ] where !(1...1_000_000_000).contains(value) {
            throw ValidationError("\(flag) must be a whole number from 1 to 1000000000")
        }
    }

    var quota: UploadQuota {
        UploadQuota(
            concurrentUploads: tokenConcurrentUploads, bytesInFlight: Int64(tokenBytesInFlightMB) * 1_000_000,
            uploadsPerHour: tokenUploadsPerHour)
    }
}
