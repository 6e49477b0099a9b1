/// A PostgreSQL password found where libpq looks when the URL has none, so it never has to be on a command line:
/// `PGPASSWORD`, else the first matching line of the password file (`PGPASSFILE`, else `~/.pgpass`).
/// A line is `hostname:port:database:username:password`; `*` in any of the first four matches anything, and `\:` and
/// `\\` stand for `:` and `\`. Lines starting with `#` are comments.
package enum PostgresPassword {
    /// Where the password file is: `PGPASSFILE`, else `$HOME/.pgpass` (nil when neither is set).
    package static func passFilePath(environment: [String: String]) -> String? {
        if let path = environment["PGPASSFILE"], !path.isEmpty { return path }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.pgpass"
    }

    /// The password for `location` from `PGPASSWORD` or `passFile`'s text (nil when unreadable or absent).
    package static func find(
        for location: PostgresLocation, environment: [String: String], passFile: String?
    ) -> String? {
        if let password = environment["PGPASSWORD"], !password.isEmpty { return password }
        guard let passFile else { return nil }
        for line in passFile.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = split(line)
            guard fields.count == 5 else { continue }
            let wanted = [location.host, String(location.port), location.database, location.user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// A line's fields, split at unescaped colons, with `\:` and `\\` unescaped.
    static func split(_ line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var escaped = false
        for character in line {
            if escaped {
                field.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}
