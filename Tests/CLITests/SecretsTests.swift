import Foundation
import MediaFixtures
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// No secret has to be on a command line, where every user reads it in `/proc/<pid>/cmdline` (issue 62): a
/// PostgreSQL password comes from `PGPASSWORD` or the password file, an upload token from `--token-file` or
/// `REEL_TOKEN`, and one given on the command line still works but warns. The passwords are checked where they
/// arrive: a fake PostgreSQL server (Tests/Secrets/fake_postgres.py) asks for one and writes down what it got.
@Suite(.timeLimit(.minutes(10))) struct SecretsTests {
    static let warning = "puts a secret on the command line"

    /// Every command that takes a catalog URL: `--database`, `reel db copy --to` and `reel serve --database-read`.
    enum Command: String, CaseIterable, Sendable {
        case tokenList = "token list --database"
        case dbCopy = "db copy --to"
        case serveRead = "serve --database-read"

        var option: String {
            switch self {
            case .tokenList: "--database"
            case .dbCopy: "--to"
            case .serveRead: "--database-read"
            }
        }

        func arguments(_ url: String, in directory: TemporaryDirectory) -> [String] {
            switch self {
            case .tokenList: ["token", "list", "--database", url]
            case .dbCopy: ["db", "copy", "--from", directory.file("from.sqlite"), "--to", url]
            case .serveRead:
                [
                    "serve", "--database", directory.file("serve.sqlite"), "--library", directory.file("library"),
                    "--port", "0", "--database-read", url,
                ]
            }
        }
    }

    @Test(arguments: Command.allCases)
    func aPostgresPasswordComesFromTheEnvironmentOrThePasswordFileAndOneInTheURLWarns(command: Command) async throws {
        let directory = try TemporaryDirectory()
        if command == .dbCopy {
            let seeded = try await ReelProcess.run([
                "db", "seed", "--database", directory.file("from.sqlite"), "--count", "1",
            ])
            try #require(seeded.status == 0, "reel db seed: \(seeded.stderr)")
        }
        let passFile = directory.file("pgpass")

        // From PGPASSWORD: no warning.
        let fromEnvironment = try await Self.passwordSent(command, in: directory, withPassword: false) { port in
            ["PGPASSWORD": "from-the-environment", "PGPASSFILE": passFile]
        }
        #expect(fromEnvironment.password == "from-the-environment", "\(fromEnvironment)")
        #expect(!fromEnvironment.stderr.contains(Self.warning), "\(fromEnvironment.stderr)")

        // From the password file, its line for this host, port, database and user; a file others may read is
        // ignored, as libpq ignores it.
        let fromFile = try await Self.passwordSent(command, in: directory, withPassword: false) { port in
            try directory.write(
                "pgpass",
                text: "# comment\nother:*:*:*:wrong\n127.0.0.1:\(port):catalog:reel:from\\:the-file\n*:*:*:*:wrong\n")
            chmod(passFile, 0o600)
            return ["PGPASSFILE": passFile]
        }
        #expect(fromFile.password == "from:the-file", "\(fromFile)")
        chmod(passFile, 0o644)
        let readable = try await Self.passwordSent(command, in: directory, withPassword: false) { _ in
            ["PGPASSFILE": passFile]
        }
        #expect(readable.password == "", "\(readable)")
        #expect(readable.stderr.contains("is ignored: others may read it"), "\(readable.stderr)")

        // In the URL: it still works, and says where it should be instead.
        let inURL = try await Self.passwordSent(command, in: directory, withPassword: true) { _ in [:] }
        #expect(inURL.password == "in-the-url", "\(inURL)")
        #expect(inURL.stderr.contains("warning: \(command.option) \(Self.warning)"), "\(inURL.stderr)")
        #expect(inURL.stderr.contains("PGPASSWORD"))
    }

    @Test func anUploadTokenComesFromAFileOrTheEnvironmentAndOneOnTheCommandLineWarns() async throws {
        let directory = try TemporaryDirectory()
        let catalog = directory.file("catalog.sqlite")
        let created = try await ReelProcess.run(["token", "create", "--database", catalog, "--name", "cli"])
        try #require(created.status == 0, "reel token create: \(created.stderr)")
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let tokenFile = try directory.write("token", text: token + "\n")
        let server = try ChildProcess([
            ReelProcess.executable, "serve", "--database", catalog, "--library", directory.file("library"),
            "--port", "0",
        ])
        try await withProcesses([server]) {
            #expect(await listens(server, seconds: 60), "reel serve never said it was listening: \(server.stderr)")
            let base = try #require(
                server.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
            var count = 0
            func upload(_ arguments: [String], _ environment: [String: String] = [:]) async throws -> ReelProcess.Result
            {
                count += 1
                let image = try directory.write(
                    "photo\(count).jpg", try SyntheticImage.jpeg(width: 64 + count, height: 64))
                return try await ReelProcess.run(
                    ["upload", image, "--server", base, "--no-wait"] + arguments,
                    environment: ["XDG_CACHE_HOME": directory.file("cache"), "REEL_TOKEN": ""].merging(environment) {
                        $1
                    },
                    within: .seconds(300))
            }
            let fromFile = try await upload(["--token-file", tokenFile])
            #expect(fromFile.status == 0, "\(fromFile.stderr)")
            #expect(!fromFile.stderr.contains(Self.warning), "\(fromFile.stderr)")
            let fromEnvironment = try await upload([], ["REEL_TOKEN": token])
            #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
            #expect(!fromEnvironment.stderr.contains(Self.warning))
            let onCommandLine = try await upload(["--token", token])
            #expect(onCommandLine.status == 0, "\(onCommandLine.stderr)")
            #expect(onCommandLine.stderr.contains("warning: --token \(Self.warning)"), "\(onCommandLine.stderr)")
            #expect(onCommandLine.stderr.contains("--token-file"))
            let wrongFile = try await upload(["--token-file", try directory.write("wrong", text: "reel_wrong\n")])
            #expect(wrongFile.status == 77, "the file's token is the one sent: \(wrongFile.stderr)")
            let empty = try await upload(["--token-file", try directory.write("empty", text: "\n")])
            #expect(empty.status == 64 && empty.stderr.contains("the file is empty"), "\(empty.stderr)")
        }
    }

    struct Sent: CustomStringConvertible {
        /// What the fake server received ("" when no client got as far as the password).
        let password: String
        let stderr: String
        var description: String { "password \"\(password)\"; reel's stderr: \(stderr.suffix(2000))" }
    }

    /// Runs `command` against a fresh fake server with the environment `setUp` returns for its port, until the
    /// server has a password or reel has exited (a server is stopped then), and returns the first password.
    static func passwordSent(
        _ command: Command, in directory: TemporaryDirectory, withPassword: Bool,
        _ setUp: (Int) throws -> [String: String]
    ) async throws -> Sent {
        let fake = try ChildProcess(["/usr/bin/python3", Self.fakeServer, "--seconds", "120"])
        return try await withProcesses([fake]) {
            _ = await ChildProcess.suspendUntil(seconds: 30) { fake.stdout.contains("\n") }
            let port = try #require(
                Int(fake.stdout.split(separator: "\n").first ?? ""), "fake_postgres: \(fake.stderr)")
            let credentials = withPassword ? "reel:in-the-url" : "reel"
            let url = "postgres://\(credentials)@127.0.0.1:\(port)/catalog"
            // Without HOME's ~/.pgpass: only what setUp gives.
            var environment = ["PGPASSWORD": "", "PGPASSFILE": directory.file("none"), "HOME": directory.path]
            environment.merge(try setUp(port)) { $1 }
            let reel = try ChildProcess(
                [ReelProcess.executable] + command.arguments(url, in: directory), environment: environment)
            try await withProcesses([reel]) {
                _ = await ChildProcess.suspendUntil(seconds: 60) {
                    fake.stdout.split(separator: "\n").count > 1 || reel.hasExited
                }
            }
            let line = fake.stdout.split(separator: "\n").dropFirst().first.map(String.init) ?? "{}"
            let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return Sent(password: json?["password"] as? String ?? "", stderr: reel.stderr)
        }
    }

    static var fakeServer: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Secrets/fake_postgres.py").path
    }
}
