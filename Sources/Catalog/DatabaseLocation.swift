/// Where the catalog lives, as `--database` and `REEL_DATABASE_URL` say it: a SQLite file (a path, the embedded
/// default) or a PostgreSQL server (`postgres://user[:password]@host[:port]/database[?sslmode=...]`). Parsed once
/// here, so every command reads the same forms and refuses the same mistakes.
package enum DatabaseLocation: Equatable, Sendable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    /// The environment variable read when `--database` is not given.
    package static let environmentVariable = "REEL_DATABASE_URL"

    /// - Throws: `DatabaseLocationError` naming what is wrong with `text`.
    package static func parse(_ text: String) throws(DatabaseLocationError) -> DatabaseLocation {
        guard !text.isEmpty else {
            throw DatabaseLocationError(text, "it is empty: give a SQLite path or a postgres:// URL")
        }
        if let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") {
            let scheme = text[..<colon].lowercased()
            guard scheme == "postgres" || scheme == "postgresql" else {
                throw DatabaseLocationError(
                    text, "the scheme '\(scheme)' is not supported: use postgres:// or a SQLite path")
            }
            return .postgres(try PostgresLocation(url: text, rest: text[text.index(colon, offsetBy: 3)...]))
        }
        return .sqlite(path: text)
    }

    /// The location with any password left out, for logs and errors.
    package var description: String {
        switch self {
        case let .sqlite(path): path
        case let .postgres(location): location.description
        }
    }
}

/// A PostgreSQL server and database. Defaults follow libpq: port 5432, the database named after the user.
package struct PostgresLocation: Equatable, Sendable, CustomStringConvertible {
    /// libpq's `sslmode`; Reel's default is `disable` (TLS off unless asked for).
    package enum SSLMode: String, CaseIterable, Sendable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    package var host: String
    package var port: Int
    package var user: String
    package var password: String?
    package var database: String
    package var sslMode: SSLMode

    package init(
        host: String, port: Int = 5432, user: String, password: String? = nil, database: String? = nil,
        sslMode: SSLMode = .disable
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database ?? user
        self.sslMode = sslMode
    }

    /// `rest` is everything after `scheme://`; `url` the whole text, for errors.
    init(url: String, rest: Substring) throws(DatabaseLocationError) {
        var remainder = rest
        var query: Substring = ""
        if let mark = remainder.firstIndex(of: "?") {
            query = remainder[remainder.index(after: mark)...]
            remainder = remainder[..<mark]
        }
        guard let slash = remainder.firstIndex(of: "/") else {
            throw DatabaseLocationError(url, "no database: write postgres://user@host[:port]/database")
        }
        let authority = remainder[..<slash]
        let path = remainder[remainder.index(after: slash)...]
        guard let at = authority.lastIndex(of: "@") else {
            throw DatabaseLocationError(url, "no user: write postgres://user@host[:port]/database")
        }
        let credentials = authority[..<at], address = authority[authority.index(after: at)...]
        let userPart: Substring, passwordPart: Substring?
        if let colon = credentials.firstIndex(of: ":") {
            userPart = credentials[..<colon]
            passwordPart = credentials[credentials.index(after: colon)...]
        } else {
            userPart = credentials
            passwordPart = nil
        }
        let user = try Self.decode(userPart, in: url, what: "user")
        guard !user.isEmpty else { throw DatabaseLocationError(url, "the user is empty") }
        let password = try passwordPart.map { part throws(DatabaseLocationError) in
            try Self.decode(part, in: url, what: "password")
        }
        let (host, port) = try Self.address(address, in: url)
        guard !path.contains("/") else {
            throw DatabaseLocationError(url, "the database name '\(path)' contains a '/'")
        }
        let database = try Self.decode(path, in: url, what: "database name")
        var sslMode = SSLMode.disable
        for parameter in query.split(separator: "&", omittingEmptySubsequences: true) {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(pair[0]), value = pair.count > 1 ? String(pair[1]) : ""
            guard key == "sslmode" else {
                throw DatabaseLocationError(url, "the parameter '\(key)' is not supported (only sslmode is)")
            }
            guard let mode = SSLMode(rawValue: value) else {
                let modes = SSLMode.allCases.map(\.rawValue).joined(separator: ", ")
                throw DatabaseLocationError(url, "sslmode '\(value)' is not one of \(modes)")
            }
            sslMode = mode
        }
        self.init(
            host: host, port: port, user: user, password: password, database: database.isEmpty ? nil : database,
            sslMode: sslMode)
    }

    /// `host`, `host:port`, `[v6]` or `[v6]:port`.
    private static func address(_ text: Substring, in url: String) throws(DatabaseLocationError) -> (String, Int) {
        var host: Substring, portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw DatabaseLocationError(url, "an IPv6 host lacks its ']'")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if after.isEmpty {
                portText = nil
            } else {
                guard after.hasPrefix(":") else {
                    throw DatabaseLocationError(url, "unexpected '\(after)' after the IPv6 host")
                }
                portText = after.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = text
            portText = nil
        }
        guard !host.isEmpty else {
            throw DatabaseLocationError(url, "no host: write postgres://user@host[:port]/database")
        }
        guard text.hasPrefix("[") || !host.contains(":") else {
            throw DatabaseLocationError(url, "an IPv6 host goes in brackets: postgres://user@[::1]:5432/database")
        }
        var port = 5432
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number), portText.allSatisfy(\.isASCII) else {
                throw DatabaseLocationError(url, "the port '\(portText)' is not a number from 1 to 65535")
            }
            port = number
        }
        return (String(host), port)
    }

    /// Percent-decodes one URL component; a malformed escape is an error, not a guess.
    private static func decode(_ text: Substring, in url: String, what: String) throws(DatabaseLocationError) -> String
    {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let high = hexValue(utf8[utf8.startIndex]),
                let low = hexValue(utf8[utf8.startIndex + 1])
            else {
                throw DatabaseLocationError(url, "the \(what) has a malformed percent-escape")
            }
            bytes.append(high << 4 | low)
            utf8 = utf8.dropFirst(2)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw DatabaseLocationError(url, "the \(what) is not UTF-8 once decoded")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `postgres://user@host:port/database?sslmode=...`, never the password.
    package var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)\(password == nil ? "" : ":***")@\(shownHost):\(port)/\(database)"
            + (sslMode == .disable ? "" : "?sslmode=\(sslMode.rawValue)")
    }
}

/// A `--database` value Reel cannot use; the message says what was wrong and shows the value without its password.
package struct DatabaseLocationError: Error, Equatable, Sendable, CustomStringConvertible {
    package let value: String
    package let reason: String

    init(_ value: String, _ reason: String) {
        self.value = Self.redacted(value)
        self.reason = reason
    }

    package var description: String { "--database \(value): \(reason)" }

    /// `postgres://user:secret@host` → `postgres://user:***@host`.
    static func redacted(_ value: String) -> String {
        guard let colonSlash = value.firstIndex(of: ":"), value[colonSlash...].hasPrefix("://") else { return value }
        let authorityStart = value.index(colonSlash, offsetBy: 3)
        guard let at = value[authorityStart...].lastIndex(of: "@"),
            let colon = value[authorityStart..<at].firstIndex(of: ":")
        else { return value }
        return String(value[..<value.index(after: colon)]) + "***" + String(value[at...])
    }
}
