import Foundation
import MediaFixtures
import TestServers
import Testing

/// `reel library copy` against SeaweedFS: a library into the store and back, resumed, with credentials from the
/// environment only and never in its output.
@Suite(.timeLimit(.minutes(5))) struct LibraryCopyCommandTests {
    @Test func aLibraryGoesToTheStoreAndBackAndARepeatIsSkipped() async throws {
        let store = try await SeaweedTestServer.shared()
        let directory = try TemporaryDirectory()
        let files = [
            "videos/v1/master.m3u8": Array("#EXTM3U\n#EXT-X-VERSION:7\n".utf8),
            "videos/v1/360p/seg_00001.m4s": (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) },
            "images/i1.webp": (0..<3_000).map { UInt8(truncatingIfNeeded: $0 * 13) },
        ]
        for (path, bytes) in files { try directory.write("library/" + path, bytes) }
        let url = store.libraryURL(prefix: SeaweedTestServer.newPrefix() + "/copied")

        let up = try await ReelProcess.run(
            ["library", "copy", "--from", directory.file("library"), "--to", url], environment: store.environment)
        #expect(up.status == 0, "\(up.stderr)")
        #expect(up.stderr.contains("copy: 3/3 files") && up.stderr.contains("copied 3 files"), "\(up.stderr)")
        #expect(up.stderr.contains("sizes and hashes match"))
        #expect(!(up.stdout + up.stderr).contains(store.secretAccessKey))

        let again = try await ReelProcess.run(
            ["library", "copy", "--from", directory.file("library"), "--to", url], environment: store.environment)
        #expect(again.status == 0 && again.stderr.contains("copied 0 files") && again.stderr.contains("skipped 3"))

        let down = try await ReelProcess.run(
            ["library", "copy", "--from", url, "--to", directory.file("back")], environment: store.environment)
        #expect(down.status == 0, "\(down.stderr)")
        for (path, bytes) in files {
            #expect(
                try Array(Data(contentsOf: URL(fileURLWithPath: directory.file("back/" + path)))) == bytes, "\(path)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("back/.copy-scratch")))

        try FileManager.default.createSymbolicLink(
            atPath: directory.file("library/videos/v1/escape"), withDestinationPath: "/etc/passwd")
        let link = try await ReelProcess.run(
            ["library", "copy", "--from", directory.file("library"), "--to", url], environment: store.environment)
        #expect(link.status != 0 && link.stderr.contains("videos/v1/escape is a symlink"), "\(link.stderr)")
    }

    @Test func missingCredentialsAndBadURLsAreClearErrors() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("library/images/i.webp", [1, 2, 3])
        let noCredentials = try await ReelProcess.run(
            ["library", "copy", "--from", directory.file("library"), "--to", "s3://reel?endpoint=http://127.0.0.1:9"],
            environment: [
                "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "HOME": directory.path, "AWS_PROFILE": "",
            ])
        #expect(noCredentials.status != 0)
        #expect(
            noCredentials.stderr.contains("no S3 credentials")
                && noCredentials.stderr.contains(directory.path + "/.aws/credentials"))

        for (arguments, expected) in [
            (["--to", "s3://Bad_Bucket"], "lowercase"),
            (["--to", "s3://reel?secret_key=x"], "unknown setting 'secret_key'"),
            (["--to", directory.file("elsewhere")], "one of --from and --to must be a directory"),
        ] {
            let run = try await ReelProcess.run(["library", "copy", "--from", directory.file("library")] + arguments)
            #expect(run.status != 0 && run.stderr.contains(expected), "\(arguments): \(run.stderr)")
        }
    }
}
