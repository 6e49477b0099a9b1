import Foundation
import MediaFixtures
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Where `reel serve` keeps the key that signs viewer sessions: hosts given one key file (`--session-key-file` or
/// `$REEL_SESSION_KEY_FILE`) take each other's sessions, a host with another key refuses them, and a key file that
/// others can read stops the server at start.
@Suite(.timeLimit(.minutes(5))) struct ServeSessionKeyTests {
    static let batch = #"[{"type":"stall","video":"v000000000","duration_ms":5}]"#

    @Test func hostsWithOneKeyFileTakeEachOthersSessionsAndAnotherKeyRefusesThem() async throws {
        let directory = try TemporaryDirectory()
        let catalog = directory.file("catalog.sqlite")
        let seeded = try await ReelProcess.run(["db", "seed", "--database", catalog, "--count", "1"])
        try #require(seeded.status == 0, "\(seeded.stderr)")
        let shared = directory.file("secrets/session-key")
        try FileManager.default.createDirectory(atPath: directory.file("secrets"), withIntermediateDirectories: true)
        // Two hosts with libraries of their own and one key file: the first makes it, by the option; the second
        // reads it, by the environment. A third has its library's own key.
        let (first, firstBase) = try await ServeEventsTests.serve(
            catalog, library: directory.file("library-1"), options: ["--session-key-file", shared])
        let (second, secondBase) = try await ServeEventsTests.serve(
            catalog, library: directory.file("library-2"), environment: ["REEL_SESSION_KEY_FILE": shared])
        let (third, thirdBase) = try await ServeEventsTests.serve(catalog, library: directory.file("library-3"))
        try await withProcesses([first, second, third]) {
            let mode = try FileManager.default.attributesOfItem(atPath: shared)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
            #expect(!FileManager.default.fileExists(atPath: directory.file("library-1/.session-key")))
            #expect(FileManager.default.fileExists(atPath: directory.file("library-3/.session-key")))
            let token = try await ViewerSessionClient.token(firstBase)
            #expect(try await ViewerSessionClient.post(Self.batch, token: token, to: firstBase) == "204")
            #expect(try await ViewerSessionClient.post(Self.batch, token: token, to: secondBase) == "204")
            #expect(try await ViewerSessionClient.post(Self.batch, token: token, to: thirdBase) == "401")
        }
    }

    @Test func aKeyFileOthersCanReadStopsTheServerAtStart() async throws {
        let directory = try TemporaryDirectory()
        let key = try directory.write("key", text: String(repeating: "ab", count: 32) + "\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key)
        let served = try await ReelProcess.run([
            "serve", "--database", directory.file("catalog.sqlite"), "--library", directory.file("library"),
            "--port", "0", "--session-key-file", key,
        ])
        #expect(served.status != 0)
        #expect(served.stderr.contains("chmod 600 \(key)"), "\(served.stderr)")
        let short = try directory.write("short", text: "abcd\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: short)
        let refused = try await ReelProcess.run([
            "serve", "--database", directory.file("catalog.sqlite"), "--library", directory.file("library"),
            "--port", "0", "--session-key-file", short,
        ])
        #expect(
            refused.status != 0 && refused.stderr.contains("line 1 of the key file is not a key"), "\(refused.stderr)")
    }
}
