import ArgumentParser
import Catalog
import FileSystem
import Foundation
import Synchronization

/// Secrets come from the environment or a file, never necessarily from the command line, which every user of the
/// machine can read in `/proc/<pid>/cmdline` while the command runs (docs/security.md, "Secrets"). One given there
/// still works, with a warning on stderr.
enum CommandLineSecrets {
    /// The options already warned about: `validate()` and `run()` both resolve a location.
    private static let warned = Mutex<Set<String>>([])

    /// Warns once per option that `option` put a secret on the command line; `instead` says where it can come from.
    static func warn(_ option: String, instead: String) {
        guard warned.withLock({ $0.insert(option).inserted }) else { return }
        printError(
            "warning: \(option) puts a secret on the command line, where any user of this machine can read it "
                + "(/proc/<pid>/cmdline, ps); \(instead)")
    }

    /// `text` (a SQLite path or a `postgres://` URL) as a catalog location. A password in it warns when it came from
    /// the command line (`option`); a URL without one gets it from `PGPASSWORD` or the password file, as libpq would.
    /// - Throws: `ValidationError` naming what is wrong with `text`.
    static func catalog(_ text: String, option: String?) throws -> DatabaseLocation {
        let location: DatabaseLocation
        do { location = try DatabaseLocation.parse(text) } catch { throw ValidationError(error.description) }
        guard case var .postgres(postgres) = location else { return location }
        if postgres.password != nil {
            if let option { warn(option, instead: "give the password in PGPASSWORD or ~/.pgpass (PGPASSFILE)") }
            return location
        }
        let environment = ProcessInfo.processInfo.environment
        postgres.password = PostgresPassword.find(
            for: postgres, environment: environment,
            passFile: PostgresPassword.passFilePath(environment: environment).flatMap(Self.passFile))
        return .postgres(postgres)
    }

    /// The password file's text, unless others may read it: libpq ignores such a file, and so does Reel, saying so.
    static func passFile(_ path: String) -> String? {
        guard let status = try? FileStatus(path: path, followingSymlinks: true), status.kind == .regular else {
            return nil
        }
        guard status.permissions & 0o077 == 0 else {
            printError(
                "warning: the password file \(path) is ignored: others may read it (chmod 0600 \(path), as libpq asks)")
            return nil
        }
        return try? String(contentsOfFile: path, encoding: .utf8)
    }

    /// A secret from a file: its first line, without the line break.
    /// - Throws: `ValidationError` when the file cannot be read or is empty.
    static func firstLine(ofFile path: String, option: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("\(option) \(path): the file cannot be read")
        }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let secret = line.trimmingCharacters(in: .whitespaces)
        guard !secret.isEmpty else { throw ValidationError("\(option) \(path): the file is empty") }
        return secret
    }
}
