import Catalog
import FileSystem
import Foundation
import MediaModel
import SQLiteCatalog
import Testing
import Worker

/// An inbox upload's sidecar (`NAME.json`, issue 65): its caption, title and creator reach the post, and a bad one
/// rejects its upload with the field named, never running a job.
@Suite(.timeLimit(.minutes(10))) struct WorkerSidecarTests {
    @Test func aSidecarsFactsReachThePostAndTheSidecarLeavesTheInbox() async throws {
        let rig = try WorkerRig()
        try rig.drop("clip.mp4.json", Array(#"{"caption": "Low tide\nat dawn", "creator": "alice"}"#.utf8))
        try rig.drop("clip.mp4", Array("video bytes".utf8))
        try rig.drop("lonely.mp4.json", Array(#"{"title": "no upload beside it"}"#.utf8))
        let worker = try rig.makeWorker(rig.configuration(ScriptedJobLauncher { _, _ in .publishVideo }))
        try await rig.runUntilIdle(worker)
        let jobs = try await rig.jobs()
        #expect(jobs.count == 1, "a sidecar is never an upload: \(jobs)")
        let job = try #require(jobs.first)
        #expect(job.state == .published)
        let expected = PostFacts(caption: "Low tide\nat dawn", creator: "alice")
        #expect(job.post == expected)
        #expect(try await rig.store.item(id: job.id)?.video().post == expected)
        #expect(try await rig.store.video(id: job.id)?.post == expected)
        let inbox = try Directory.entries(of: rig.inbox).map { String(decoding: $0.name, as: UTF8.self) }
        #expect(inbox == ["lonely.mp4.json"], "the taken upload's sidecar went with it; a lone one stays")
    }

    @Test func aBadSidecarRejectsItsUploadNamingTheFieldAndKeepsTheSidecar() async throws {
        let rig = try WorkerRig()
        let sidecar = Array(#"{"title": "two\nlines"}"#.utf8)
        try rig.drop("clip.mp4.json", sidecar)
        try rig.drop("clip.mp4", Array("video bytes".utf8))
        let launcher = ScriptedJobLauncher { _, _ in .publishVideo }
        let worker = try rig.makeWorker(rig.configuration(launcher))
        try await rig.runUntilIdle(worker)
        let job = try #require(try await rig.jobs().first)
        #expect(job.state == .rejected && job.reason == .rejected(.invalidMetadata), "\(job)")
        #expect(job.lastError?.contains("title holds the control character U+000A") == true, "\(job)")
        #expect(launcher.launches.isEmpty, "no job ran")
        #expect(rig.entries("rejected") == [job.id, job.id + ".reason.json", job.id + ".sidecar.json"])
        #expect(try rig.reason(job.id, in: "rejected")["reason"] as? String == "invalid_metadata")
        let kept = try ReadOnlyFile.contents(of: rig.library + "/rejected/\(job.id).sidecar.json")
        #expect(kept == sidecar)
        #expect(try Directory.entries(of: rig.inbox).isEmpty)
    }
}
