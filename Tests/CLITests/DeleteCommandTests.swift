import Catalog
import Foundation
import MediaFixtures
import SQLiteCatalog
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// Deleting a post end to end (issue 65): a clip uploaded with a caption through `reel upload` and published by
/// `reel serve --inbox`'s worker, deleted over HTTP by its uploader while the server is killed between the catalog's
/// commit and the files, and by `reel delete` killed the same way. Each time the post is out of the feed at once,
/// and the files go once Reel runs again.
@Suite(.timeLimit(.minutes(10))) struct DeleteCommandTests {
    static func serve(_ directory: TemporaryDirectory, port: Int, fault: String? = nil) throws -> ChildProcess {
        try ChildProcess(
            [
                ReelProcess.executable, "serve", "--database", directory.file("catalog.sqlite"),
                "--library", directory.file("library"), "--inbox", directory.file("inbox"), "--settle", "0.3",
                "--poll-interval", "0.1", "--port", String(port),
            ], environment: fault.map { ["REEL_FAULT_INJECTION": $0] } ?? [:])
    }

    static func token(_ directory: TemporaryDirectory, _ name: String, admin: Bool = false) async throws -> String {
        let created = try await ReelProcess.run(
            ["token", "create", "--database", directory.file("catalog.sqlite"), "--name", name]
                + (admin ? ["--admin"] : []))
        #expect(created.status == 0, "\(created.stderr)")
        return created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The library's files of post `id`: its outputs and its original.
    static func files(of id: String, in directory: TemporaryDirectory) -> [String] {
        let videos = (try? FileManager.default.contentsOfDirectory(atPath: directory.file("library/videos"))) ?? []
        let originals =
            (try? FileManager.default.contentsOfDirectory(atPath: directory.file("library/originals"))) ?? []
        return (videos + originals).filter { $0.hasPrefix(id) }
    }

    static func delete(_ base: String, _ id: String, token: String) async throws -> Int? {
        var request = URLRequest(url: try #require(URL(string: base + "/v1/videos/" + id)))
        request.httpMethod = "DELETE"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return nil }
        return (response as? HTTPURLResponse)?.statusCode
    }

    @Test func aDeletionCutOffAfterItsCommitIsFinishedWhenReelRunsAgain() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("inbox"), withIntermediateDirectories: true)
        let owner = try await Self.token(directory, "phone")
        let admin = try await Self.token(directory, "ops", admin: true)
        let source = try await SharedClip.uploadable()

        let first = try Self.serve(directory, port: 0, fault: "delete-after-commit")
        #expect(await listens(first), "reel serve never said it was listening: \(first.stderr)")
        let base = first.stdout.split(separator: "\n").first.map { String($0.split(separator: " ").last ?? "") } ?? ""
        let port = try #require(Int(base.split(separator: ":").last ?? ""))
        let upload = try await ChildProcess.run(
            [
                ReelProcess.executable, "upload", source, "--server", base, "--token", owner, "--json",
                "--caption", "to be deleted",
            ],
            environment: ["XDG_CACHE_HOME": directory.file("cache"), "HOME": directory.path], within: .seconds(400))
        #expect(upload.status == 0, "reel upload: \(upload.stdout)\n\(upload.stderr)")
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        let job = try #require(try await store.jobs(state: .published).first)
        let id = try #require(job.mediaID)
        #expect(try await store.video(id: id)?.post.caption == "to be deleted")
        // The original is filed just after the publish commits; the provisional rendition stays a while beside the
        // ladder.
        let original = directory.file("library/originals/\(id)")
        #expect(await ChildProcess.suspendUntil(seconds: 30) { FileManager.default.fileExists(atPath: original) })
        let files = Self.files(of: id, in: directory)
        #expect(files.contains(id) && files.contains(id + ".e1"), "\(files)")

        // The server dies between the catalog's commit and the files: the post is out of the feed, its files stay.
        #expect(try await Self.delete(base, id, token: owner) == nil, "the server answered instead of dying")
        #expect(try await first.exit(within: .seconds(30)) == 128 + SIGKILL)
        #expect(try await store.item(id: id) == nil)
        #expect(try await store.tombstone(id: id)?.mediaRemovedAt == nil)
        #expect(Self.files(of: id, in: directory).sorted() == files.sorted(), "\(Self.files(of: id, in: directory))")

        let second = try Self.serve(directory, port: port)
        try await withProcesses([second]) {
            #expect(await listens(second), "the restarted reel serve never listened: \(second.stderr)")
            // The files go first, then the tombstone records it.
            let finished = await ChildProcess.suspendUntil(seconds: 60) {
                guard Self.files(of: id, in: directory).isEmpty else { return false }
                return (try? await store.tombstone(id: id))??.mediaRemovedAt != nil
            }
            #expect(finished, "the files outlived the restart: \(Self.files(of: id, in: directory))")
            let (_, media) = try await URLSession.shared.data(
                from: try #require(URL(string: base + "/media/videos/\(id).e1/master.m3u8")))
            #expect((media as? HTTPURLResponse)?.statusCode == 404)
            #expect(try await Self.delete(base, id, token: owner) == 404, "the uploader's token no longer finds it")
            #expect(try await Self.delete(base, id, token: admin) == 204, "a second deletion is harmless")
        }
        #expect(second.stderr.contains("interrupted deletions finished"), "\(second.stderr.suffix(3000))")
        #expect(
            !second.stderr.contains("to be deleted") && !first.stderr.contains("to be deleted"), "no content logged")
    }

    @Test func reelDeleteKilledAfterItsCommitFinishesWhenRunAgain() async throws {
        let directory = try TemporaryDirectory()
        let catalog = directory.file("catalog.sqlite")
        let library = directory.file("library")
        #expect(try await ReelProcess.run(["db", "seed", "--database", catalog, "--count", "3"]).status == 0)
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: catalog))
        let id = try #require(try await store.page(limit: 1, after: nil).items.first?.id)
        let folder = directory.file("library/videos/\(id)")
        try FileManager.default.createDirectory(atPath: folder + "/360p", withIntermediateDirectories: true)
        for name in ["master.m3u8", "360p/seg_000.m4s", "poster.jpg"] {
            try Data(name.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        let cut = try await ChildProcess.run(
            [
                ReelProcess.executable, "delete", id, "--database", catalog, "--library", library, "--reason",
                "takedown",
            ],
            environment: ["REEL_FAULT_INJECTION": "delete-after-commit"], within: .seconds(60))
        #expect(cut.status == 128 + SIGKILL, "\(cut.stderr)")
        #expect(try await store.item(id: id) == nil)
        #expect(FileManager.default.fileExists(atPath: folder + "/master.m3u8"))

        let again = try await ReelProcess.run(["delete", id, "--database", catalog, "--library", library])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("already deleted") && again.stderr.contains("takedown"), "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder), "the files outlived a second deletion")
        #expect(try await store.tombstone(id: id)?.mediaRemovedAt != nil)

        let missing = try await ReelProcess.run(["delete", "nosuchpost", "--database", catalog, "--library", library])
        #expect(missing.status == 64 && missing.stderr.contains("no post \"nosuchpost\""), "\(missing.stderr)")
        let other = try #require(try await store.page(limit: 1, after: nil).items.first?.id)
        let json = try await ReelProcess.run(["delete", other, "--database", catalog, "--library", library, "--json"])
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((report?["removed"] as? [String: Any])?["from_feed"] as? Bool == true, "\(json.stdout) \(json.stderr)")
    }
}
