import Catalog
import FileSystem
import Foundation
import SQLiteCatalog
import Testing

@testable import Worker

/// The library's sweep on a directory library: the same rule as in object storage, judged by the files' ages.
@Suite(.timeLimit(.minutes(5))) struct DirectoryLibrarySweepTests {
    /// Outputs no commit will ever point at go once older than the grace period; the published claim, a library's
    /// media from before claim-keyed outputs and strangers' files stay; an original is never queued again here,
    /// since a shared scratch directory files originals only after their job's verdict.
    @Test func theSweepRemovesOnlyAbandonedClaimsFromADirectory() async throws {
        let rig = try WorkerRig()
        try rig.drop("clip.mp4", Array("video bytes".utf8))
        let worker = try rig.makeWorker(
            rig.configuration(ScriptedJobLauncher { _, _ in .publishVideo }) { $0.sweepGraceSeconds = 600 })
        try await rig.runUntilIdle(worker)
        let video = try #require(try await rig.jobs().first)
        #expect(video.state == .published && video.epoch == 1)
        let stranger = "0123456789abcdef0123"
        let orphan = "fedcba9876543210fedc"
        let planted = [
            "videos/\(video.id).e7/master.m3u8", "videos/\(video.id).e7/360p/segment0.m4s",
            "videos/\(stranger).e1/master.m3u8", "images/\(stranger).e3.webp", "videos/\(stranger)/master.m3u8",
            "images/\(stranger).webp", "notes/readme.txt", "originals/\(orphan)",
        ]
        for key in planted {
            try Directory.create(Directory.parent(of: rig.library + "/" + key))
            try Data(key.utf8).write(to: URL(fileURLWithPath: rig.library + "/" + key))
        }
        // Young files are left alone.
        try await worker.sweepLibrary()
        for key in planted { #expect(FileManager.default.fileExists(atPath: rig.library + "/" + key), "\(key)") }

        // An hour old: past the grace period. The published claim's files too, which must stay all the same.
        let old = Date(timeIntervalSinceNow: -3600)
        let published = try FileManager.default.subpathsOfDirectory(atPath: rig.library + "/videos").map {
            rig.library + "/videos/" + $0
        }
        for path in planted.map({ rig.library + "/" + $0 }) + published {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path)
        }
        try await worker.sweepLibrary()
        let gone = [
            "videos/\(video.id).e7/master.m3u8", "videos/\(video.id).e7/360p/segment0.m4s",
            "videos/\(stranger).e1/master.m3u8", "images/\(stranger).e3.webp",
        ]
        for key in gone { #expect(!FileManager.default.fileExists(atPath: rig.library + "/" + key), "\(key)") }
        for key in Set(planted).subtracting(gone) {
            #expect(FileManager.default.fileExists(atPath: rig.library + "/" + key), "\(key)")
        }
        #expect(rig.entries("videos") == [stranger, video.id + ".e1"].sorted())
        #expect(rig.entries("videos/\(video.id).e1").contains("master.m3u8"), "the published claim stays")
        #expect(try await rig.store.job(id: orphan) == nil)
    }
}
