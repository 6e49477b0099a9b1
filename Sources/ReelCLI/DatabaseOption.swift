import ArgumentParser
import Catalog
import Foundation

/// `--database`: a SQLite path or a `postgres://` URL, or `REEL_DATABASE_URL` when the option is not given.
struct DatabaseOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Catalog: a SQLite file (created and migrated when missing) or postgres://user@host[:port]/database"
                + "[?sslmode=disable|prefer|require|verify-ca|verify-full]; the password from $PGPASSWORD or ~/.pgpass"
                + " (one in the URL works, with a warning). Default: $REEL_DATABASE_URL.",
            valueName: "path-or-url")) var database: String?

    func validate() throws { _ = try location() }

    /// - Throws: `ValidationError` naming the value and what is wrong with it.
    /// A password in `--database` warns (it is on the command line); a URL without one takes it from `PGPASSWORD`
    /// or the password file (`CommandLineSecrets.catalog`).
    func location() throws -> DatabaseLocation {
        if let database { return try CommandLineSecrets.catalog(database, option: "--database") }
        guard let text = ProcessInfo.processInfo.environment[DatabaseLocation.environmentVariable] else {
            throw ValidationError("give --database PATH-OR-URL, or set \(DatabaseLocation.environmentVariable)")
        }
        return try CommandLineSecrets.catalog(text, option: nil)
    }
}
