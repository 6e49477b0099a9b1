import ArgumentParser
import FeedStore
import Foundation

extension Reel {
    /// `reel db`: catalog maintenance.
    struct DB: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "db", abstract: "Catalog maintenance.", subcommands: [Seed.self]
        )

        /// `reel db seed --database PATH --count N`: synthetic published videos for tests and benchmarks.
        struct Seed: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Fill the catalog with N synthetic published videos.")

            @Option(name: .long, help: "SQLite catalog (created and migrated when missing).") var database: String
            @Option(name: .long, help: "How many videos to add.") var count: Int

            func validate() throws {
                guard count > 0 else { throw ValidationError("--count must be positive") }
            }

            func run() async throws {
                let store = FeedStore(database: try FeedDatabase(path: database))
                let existing = try store.videoCount()
                let started = Date()
                try store.seed(count: count, startingAt: existing)
                let seconds = Date().timeIntervalSince(started)
                print(String(format: "seeded %ld videos (%ld in all) into %@ in %.1f s", count, existing + count, database, seconds))
            }
        }
    }
}
