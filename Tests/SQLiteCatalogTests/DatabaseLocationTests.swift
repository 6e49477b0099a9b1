import Catalog
import SQLiteCatalog
import Testing

/// Every form `--database` and `REEL_DATABASE_URL` take, and every mistake refused with its reason.
@Suite(.timeLimit(.minutes(5))) struct DatabaseLocationTests {
    @Test(arguments: [
        "catalog.sqlite", "/var/lib/reel/catalog.sqlite", "./relative/path.db", "with:colon.sqlite", "file.sqlite?x",
    ])
    func aPathIsSQLite(path: String) throws {
        #expect(try DatabaseLocation.parse(path) == .sqlite(path: path))
    }

    @Test func aFullURLKeepsEveryPart() throws {
        let location = try DatabaseLocation.parse("postgres://reel:s3cret@db.internal:6543/catalog?sslmode=require")
        #expect(
            location
                == .postgres(
                    PostgresLocation(
                        host: "db.internal", port: 6543, user: "reel", password: "s3cret",
                        database: "catalog", sslMode: .require)))
        #expect(location.description == "postgres://reel:***@db.internal:6543/catalog?sslmode=require")
    }

    @Test func defaultsFollowLibpq() throws {
        // Port 5432, the database named after the user, TLS off.
        #expect(
            try DatabaseLocation.parse("postgres://reel@127.0.0.1/")
                == .postgres(PostgresLocation(host: "127.0.0.1", user: "reel")))
        let location = try DatabaseLocation.parse("postgresql://alice@host/db")
        guard case let .postgres(pg) = location else {
            Issue.record("\(location)")
            return
        }
        #expect(pg.port == 5432 && pg.database == "db" && pg.sslMode == .disable && pg.password == nil)
        #expect(try DatabaseLocation.parse("POSTGRES://alice@host/db") == location, "the scheme is case-insensitive")
    }

    @Test func ipv6HostsAreBracketed() throws {
        #expect(
            try DatabaseLocation.parse("postgres://u@[::1]:5433/d")
                == .postgres(PostgresLocation(host: "::1", port: 5433, user: "u", database: "d")))
        #expect(
            try DatabaseLocation.parse("postgres://u@[fd00::2]/d")
                == .postgres(PostgresLocation(host: "fd00::2", user: "u", database: "d")))
        #expect(PostgresLocation(host: "::1", user: "u").description == "postgres://u@[::1]:5432/u")
    }

    @Test func componentsArePercentDecoded() throws {
        let location = try DatabaseLocation.parse("postgres://r%40el:p%3Ass%2Fw%C3%B6rd@h/my%20db")
        #expect(
            location == .postgres(PostgresLocation(host: "h", user: "r@el", password: "p:ss/wörd", database: "my db")))
        // An '@' in the password is taken by the last '@'.
        guard case let .postgres(pg) = try DatabaseLocation.parse("postgres://u:a@b@h/d") else {
            Issue.record("not postgres")
            return
        }
        #expect(pg.password == "a@b" && pg.host == "h")
    }

    @Test(arguments: PostgresLocation.SSLMode.allCases)
    func everySSLModeIsHonoured(mode: PostgresLocation.SSLMode) throws {
        guard case let .postgres(pg) = try DatabaseLocation.parse("postgres://u@h/d?sslmode=\(mode.rawValue)") else {
            Issue.record("not postgres")
            return
        }
        #expect(pg.sslMode == mode)
    }

    @Test(arguments: [
        ("", "it is empty"),
        ("mysql://u@h/d", "the scheme 'mysql' is not supported"),
        ("postgres://u@h", "no database"),
        ("postgres://h/d", "no user"),
        ("postgres://@h/d", "the user is empty"),
        ("postgres://u@/d", "no host"),
        ("postgres://u@:5432/d", "no host"),
        ("postgres://u@h:0/d", "the port '0' is not a number from 1 to 65535"),
        ("postgres://u@h:65536/d", "the port '65536' is not a number from 1 to 65535"),
        ("postgres://u@h:abc/d", "the port 'abc' is not a number from 1 to 65535"),
        ("postgres://u@h:/d", "the port '' is not a number from 1 to 65535"),
        ("postgres://u@::1/d", "an IPv6 host goes in brackets"),
        ("postgres://u@[::1/d", "an IPv6 host lacks its ']'"),
        ("postgres://u@[::1]x/d", "unexpected 'x' after the IPv6 host"),
        ("postgres://u@h/a/b", "the database name 'a/b' contains a '/'"),
        (
            "postgres://u@h/d?sslmode=maybe",
            "sslmode 'maybe' is not one of disable, allow, prefer, require, verify-ca, verify-full"
        ),
        ("postgres://u@h/d?connect_timeout=3", "the parameter 'connect_timeout' is not supported (only sslmode is)"),
        ("postgres://u@h/d%2", "the database name has a malformed percent-escape"),
        ("postgres://u%zz@h/d", "the user has a malformed percent-escape"),
        ("postgres://u@h/%FF", "the database name is not UTF-8 once decoded"),
    ])
    func mistakesAreRefusedWithTheirReason(value: String, reason: String) {
        #expect(throws: DatabaseLocationError.self) { try DatabaseLocation.parse(value) }
        do {
            _ = try DatabaseLocation.parse(value)
        } catch {
            #expect(error.reason.hasPrefix(reason), "\(error)")
            #expect(error.description.hasPrefix("--database "))
        }
    }

    @Test func errorsNeverShowThePassword() {
        do {
            _ = try DatabaseLocation.parse("postgres://reel:topsecret@h:99999/d")
            Issue.record("accepted a bad port")
        } catch {
            #expect(!error.description.contains("topsecret"), "\(error)")
            #expect(error.value == "postgres://reel:***@h:99999/d")
        }
    }
}
