import ArgumentParser
import FeedStore
import Foundation
import Logging

extension Reel {
    /// `reel db`: catalog maintenance.
    struct DB: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "db", abstract: "Catalog maintenance.", subcommands: [Seed.self]
        )

        /// `reel db seed --database PATH --count N`: synthetic published videos for tests and benchmarks.
        struct Seed: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Fill the catalog with N synthetic published videos.")

            @OptionGroup var database: DatabaseOption
            @Option(name: .long, help: "How many videos to add.") var count: Int

            func validate() throws {
                guard count > 0 else { throw ValidationError("--count must be positive") }
            }

            func run() async throws {
                let location = try database.location()
                let count = count
                let (existing, seconds) = try await CatalogOpener.with(location, connections: 1, logger: Logger(label: "reel.db")) { store in
                    let existing = try await store.videoCount()
                    let started = Date()
                    try await store.seed(count: count, startingAt: existing, batch: 50_000)
                    return (existing, Date().timeIntervalSince(started))
                }
                print(String(format: "seeded %ld videos (%ld in all) into %@ in %.1f s", count, existing + count, location.description, seconds))
            }
        }
    }
}
