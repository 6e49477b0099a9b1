import ArgumentParser
import FeedStore
import Foundation

/// `--database`: a SQLite path or a `postgres://` URL, or `REEL_DATABASE_URL` when the option is not given.
struct DatabaseOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Catalog: a SQLite file (created and migrated when missing) or postgres://user[:password]@host[:port]/database"
                + "[?sslmode=disable|prefer|require|verify-ca|verify-full]. Default: $REEL_DATABASE_URL.",
            valueName: "path-or-url")) var database: String?

    func validate() throws { _ = try location() }

    /// - Throws: `ValidationError` naming the value and what is wrong with it.
    func location() throws -> DatabaseLocation {
        guard let text = database ?? ProcessInfo.processInfo.environment[DatabaseLocation.environmentVariable] else {
            throw ValidationError("give --database PATH-OR-URL, or set \(DatabaseLocation.environmentVariable)")
        }
        do { return try DatabaseLocation.parse(text) } catch { throw ValidationError(error.description) }
    }
}
