import ArgumentParser
import Catalog
import CatalogEngines
import Foundation
import Logging

extension Reel {
    /// `reel db`: catalog maintenance.
    struct DB: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "db", abstract: "Catalog maintenance.", subcommands: [Seed.self, Copy.self]
        )

        /// `reel db seed --database PATH --count N`: synthetic published videos for tests and benchmarks.
        struct Seed: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Fill the catalog with N synthetic published videos.")

            @OptionGroup var database: DatabaseOption
            @Option(name: .long, help: "How many videos to add.") var count: Int

            func validate() throws {
                guard count > 0 else { throw ValidationError("--count must be positive") }
            }

            func run() async throws {
                let location = try database.location()
                let count = count
                let logger = Logger(label: "reel.db")
                let (existing, seconds) = try await CatalogOpener.with(location, connections: 1, logger: logger) {
                    (catalog: any FeedReading & CatalogSeeding) in
                    let existing = try await catalog.videoCount()
                    let started = Date()
                    try await catalog.seed(count: count, startingAt: existing, batch: 50_000)
                    return (existing, Date().timeIntervalSince(started))
                }
                print(
                    String(
                        format: "seeded %ld videos (%ld in all) into %@ in %.1f s", count, existing + count,
                        location.description, seconds))
            }
        }

        /// `reel db copy --from catalog.sqlite --to postgres://...`: moving a library's catalog to PostgreSQL.
        struct Copy: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract:
                    "Copy a SQLite catalog into an empty PostgreSQL catalog (in one transaction, row counts checked).",
                discussion: """
                    Stop the workers and servers that write to the SQLite catalog first (the copy reads one snapshot, so
                    anything written during it stays behind). Then start them with --database set to the same URL: the
                    library folder is unchanged, since the catalog stores paths relative to it.
                    """)

            @Option(name: .long, help: "The SQLite catalog to copy (migrated to the current schema first).") var from:
                String
            @Option(
                name: .long,
                help: ArgumentHelp(
                    "The PostgreSQL catalog: postgres://user@host[:port]/database; the password from $PGPASSWORD or ~/.pgpass.",
                    valueName: "url"))
            var to: String
            @Option(name: .long, help: "Rows per INSERT.") var batch = 1_000

            func validate() throws {
                guard (1...50_000).contains(batch) else { throw ValidationError("--batch must be from 1 to 50000") }
                guard case .postgres = try target() else {
                    throw ValidationError("--to must be a postgres:// URL, not \(to)")
                }
                guard FileManager.default.fileExists(atPath: from) else {
                    throw ValidationError("--from \(from): no such SQLite catalog")
                }
            }

            func target() throws -> DatabaseLocation { try CommandLineSecrets.catalog(to, option: "--to") }

            func run() async throws {
                guard case let .postgres(location) = try target() else { return }
                let copy = try CatalogCopy(sourcePath: from, batchRows: batch)
                let logger = Logger(label: "reel.db.copy")
                let started = Date()
                let reporter = CopyProgress()
                let counts: [String: Int]
                do {
                    // The pool's own connection chatter (below warning) stays out of the command's output.
                    counts = try await copy.run(into: location, logger: logger) { reporter.report($0) }
                } catch {
                    throw CopyFailed(description: "reel db copy \(from) -> \(location): \(error)")
                }
                for (table, count) in counts.sorted(by: { $0.key < $1.key }) { print("\(table)\t\(count)") }
                printError(
                    String(
                        format: "copied %ld rows from %@ into %@ in %.1f s; row counts match",
                        counts.values.reduce(0, +), from, location.description, Date().timeIntervalSince(started)))
            }
        }
    }
}

/// A copy that stopped (the PostgreSQL catalog is then unchanged): said without a usage line, as it is not one.
struct CopyFailed: Error, CustomStringConvertible {
    let description: String
}
