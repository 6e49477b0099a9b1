import Foundation
import MediaFixtures
import TestTraits
import Testing

/// Options whose numbers reach integer arithmetic have ceilings: each of these values once trapped reel (a signal,
/// not a usage error) where it was converted or added (docs/traps.md).
@Suite(.offThePool, .timeLimit(.minutes(5))) struct NumericOptionTests {
    @Test func numbersPastWhatTheirIntegersHoldAreUsageErrors() async throws {
        let directory = try TemporaryDirectory()
        let database = directory.file("c.sqlite"), library = directory.file("library"), inbox = directory.file("in")
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        for (arguments, expected) in [
            (
                ["serve", "--database", database, "--library", library, "--idle-timeout", "1e300"],
                "--idle-timeout must be from 0.1 to 86400 seconds"
            ),
            (
                ["serve", "--database", database, "--library", library, "--idle-timeout", "inf"],
                "--idle-timeout must be from 0.1 to 86400 seconds"
            ),
            (
                ["worker", "--inbox", inbox, "--database", database, "--library", library, "--job-timeout", "1e300"],
                "--job-timeout must be from 1 to 604800 s"
            ),
            (
                [
                    "worker", "--inbox", inbox, "--database", database, "--library", "s3://reel",
                    "--sweep-grace", "1e300",
                ],
                "--sweep-grace must be from 1 to 315360000 s"
            ),
            (
                [
                    "simulate", "--mode", "client", "--network", directory.file("traces"), "--catalog",
                    directory.file("catalog"), "--scroll-pause", "9223372036854775807",
                ],
                "--scroll-pause takes 0 to 3600000 milliseconds"
            ),
        ] {
            let run = try await ReelProcess.run(arguments, within: .seconds(120))
            // A trap ends reel by a signal (status 128 + n); a usage error is ArgumentParser's 64.
            #expect(run.status == 64, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains(expected), "\(arguments): \(run.stderr)")
        }
    }
}
