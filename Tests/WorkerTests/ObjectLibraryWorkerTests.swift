import Catalog
import FileSystem
import Foundation
import MediaFixtures
import MediaModel
import NIOCore
import ObjectStore
import SQLiteCatalog
import SigV4
import TestServers
import Testing

@testable import Worker

/// The worker with its library in object storage (a real SeaweedFS), driven in-process with scripted jobs: each
/// "host" has its own inbox and scratch directory, and the catalog and the store are all they share.
@Suite(.timeLimit(.minutes(5))) struct ObjectLibraryWorkerTests {
    @Test func publishesToTheStoreUnderTheClaimsKeysAndKeepsTheOriginal() async throws {
        try await ObjectWorkerRig.with { rig in
            let launcher = ScriptedJobLauncher { invocation, _ in
                (try? String(contentsOfFile: invocation.source, encoding: .utf8))?.hasPrefix("video") == true
                    ? .publishVideo : .publishImage
            }
            try rig.local.drop("photo.png", Array("image bytes".utf8))
            try rig.local.drop("clip.mp4", Array("video bytes".utf8))
            try await rig.local.runUntilIdle(try rig.makeWorker(rig.configuration(launcher)))
            let jobs = try await rig.local.jobs()
            #expect(jobs.count == 2 && jobs.allSatisfy { $0.state == .published && $0.epoch == 1 }, "\(jobs)")
            let video = try #require(jobs.first { $0.kind == .video })
            let image = try #require(jobs.first { $0.kind == .image })
            let keys = try await rig.keys()
            #expect(
                keys
                    == [
                        "images/\(image.id).e1.webp", "originals/\(image.id)", "originals/\(video.id)",
                        "videos/\(video.id).e1/360p/index.m3u8", "videos/\(video.id).e1/360p/segment0.m4s",
                        "videos/\(video.id).e1/master.m3u8", "videos/\(video.id).e1/storyboard.vtt",
                        "videos/\(video.id).e1/storyboard.webp",
                    ].sorted(), "\(keys)")
            // The catalog keeps the claim's paths; the feed renders them at the edge.
            let item = try #require(try await rig.local.store.item(id: video.id)).video()
            #expect(item.masterPath == "videos/\(video.id).e1/master.m3u8", "\(item)")
            #expect(item.storyboard?.vttPath == "videos/\(video.id).e1/storyboard.vtt")
            // Each object carries its media headers and hash; the original is private and byte-identical.
            let playlist = try #require(try await rig.client.head(ObjectKey("videos/\(video.id).e1/master.m3u8")))
            #expect(playlist.contentType == MediaPolicy.playlistType)
            #expect(playlist.cacheControl == MediaPolicy.playlistCacheControl)
            let segment = try #require(
                try await rig.client.head(ObjectKey("videos/\(video.id).e1/360p/segment0.m4s")))
            #expect(segment.contentType == "video/mp4" && segment.cacheControl == MediaPolicy.immutableCacheControl)
            #expect(segment.metadata["sha256"]?.count == 64 && segment.size == 4096)
            let webp = try #require(try await rig.client.head(ObjectKey("images/\(image.id).e1.webp")))
            #expect(webp.contentType == "image/webp" && webp.cacheControl == MediaPolicy.immutableCacheControl)
            let original = try await rig.client.get(ObjectKey("originals/\(video.id)"))
            #expect(Array(original.readableBytesView) == Array("video bytes".utf8))
            // Scratch space holds nothing once the jobs are done, and nothing was written as a library folder.
            #expect(rig.local.entries(".incoming").isEmpty && rig.local.entries(".staging").isEmpty)
            #expect(rig.local.entries("videos").isEmpty && rig.local.entries("originals").isEmpty)
        }
    }

    @Test func anUploadTakenOnOneHostIsProcessedOnAnother() async throws {
        try await ObjectWorkerRig.with { rig in
            // Host A only takes the upload (one inbox scan: the original stored, the job released); it never runs.
            let takeOnly = ScriptedJobLauncher { _, _ in .refuseToStart }
            try rig.local.drop("photo.png", Array("taken on A".utf8))
            let hostA = try rig.makeWorker(rig.configuration(takeOnly))
            try await hostA.intake()
            let queued = try #require(try await rig.local.jobs().first)
            #expect(queued.state == .queued && queued.owner == nil, "\(queued)")
            #expect(try await rig.keys() == ["originals/\(queued.id)"])
            // Host B has its own inbox and scratch directory.
            let hostB = try WorkerRig(sharingCatalogOf: rig.local)
            let worker = try hostB.makeWorker(
                rig.configuration(ScriptedJobLauncher { _, _ in .publishImage }, on: hostB))
            try await hostB.runUntilIdle(worker)
            let job = try #require(try await rig.local.jobs().first)
            #expect(job.state == .published && job.epoch == 1, "\(job)")
            #expect(try await rig.keys() == ["images/\(job.id).e1.webp", "originals/\(job.id)"])
            #expect(takeOnly.launches.isEmpty)
            // B fetched it into its claim's staging and left nothing behind; A still has its own copy until it
            // sweeps (the job has its verdict), and sweeping removes it.
            #expect(hostB.entries(".staging").isEmpty && hostB.entries(".incoming").isEmpty)
            #expect(rig.local.entries(".incoming") == [job.id])
            try await hostA.sweepIncoming()
            #expect(rig.local.entries(".incoming").isEmpty)
        }
    }

    @Test func aDuplicatesOriginalLeavesTheStoreAndARejectionGetsAReasonObject() async throws {
        try await ObjectWorkerRig.with { rig in
            let bytes = Array("the same bytes".utf8)
            let launcher = ScriptedJobLauncher { invocation, _ in
                (try? String(contentsOfFile: invocation.source, encoding: .utf8)) == "bad"
                    ? .reject(.unsupportedFormat) : .publishImage
            }
            try rig.local.drop("first.png", bytes)
            try await rig.local.runUntilIdle(try rig.makeWorker(rig.configuration(launcher)))
            try rig.local.drop("again.png", bytes)
            try rig.local.drop("bad.png", Array("bad".utf8))
            try await rig.local.runUntilIdle(try rig.makeWorker(rig.configuration(launcher)))
            let jobs = try await rig.local.jobs()
            let first = try #require(jobs.first { $0.sourceName == Array("first.png".utf8) })
            let again = try #require(jobs.first { $0.sourceName == Array("again.png".utf8) })
            let bad = try #require(jobs.first { $0.sourceName == Array("bad.png".utf8) })
            #expect(again.state == .published && again.reason == .duplicate && again.mediaID == first.id)
            #expect(bad.state == .rejected && bad.reason == .rejected(.unsupportedFormat), "\(bad)")
            #expect(
                try await rig.keys()
                    == [
                        "images/\(first.id).e1.webp", "originals/\(bad.id)", "originals/\(first.id)",
                        "rejected/\(bad.id).reason.json",
                    ].sorted())
            let reason = try await rig.client.get(ObjectKey("rejected/\(bad.id).reason.json"))
            let fields = try #require(
                try JSONSerialization.jsonObject(with: Data(reason.readableBytesView)) as? [String: Any])
            #expect(
                fields["reason"] as? String == "unsupported_format" && fields["original_name"] as? String == "bad.png")
            #expect(fields["bytes"] as? Int == 3 && fields["state"] as? String == "rejected")
            #expect(rig.local.entries(".incoming").isEmpty)
        }
    }

    /// Outputs no commit will ever point at go once they are older than the grace period; published outputs,
    /// a copied library's keys and strangers' objects stay; an original without a job gets one.
    @Test func theSweepRemovesOnlyAbandonedClaimsAndRequeuesOrphanedOriginals() async throws {
        try await ObjectWorkerRig.with { rig in
            try rig.local.drop("clip.mp4", Array("video bytes".utf8))
            let launcher = ScriptedJobLauncher { _, _ in .publishVideo }
            let worker = try rig.makeWorker(rig.configuration(launcher) { $0.sweepGraceSeconds = 10 })
            try await rig.local.runUntilIdle(worker)
            let video = try #require(try await rig.local.jobs().first)
            #expect(video.state == .published && video.epoch == 1)
            let stranger = "0123456789abcdef0123"
            let orphan = "fedcba9876543210fedc"
            let planted = [
                "videos/\(video.id).e7/master.m3u8", "videos/\(video.id).e7/360p/segment0.m4s",
                "videos/\(stranger).e1/master.m3u8", "images/\(stranger).e3.webp",
                "videos/\(stranger)/master.m3u8", "images/\(stranger).webp", "notes/readme.txt",
                "originals/\(orphan)",
            ]
            for key in planted {
                try await rig.client.put(
                    ObjectKey(key), bytes: .init(string: key), contentType: "text/plain", cacheControl: "no-store")
            }
            // Young objects are left alone.
            try await worker.sweepLibrary()
            #expect(try await rig.keys().count == 6 + planted.count)
            try await Task.sleep(for: .seconds(11))
            try await worker.sweepLibrary()
            let keys = try await rig.keys()
            #expect(!keys.contains { $0.hasPrefix("videos/\(video.id).e7/") }, "\(keys)")
            #expect(!keys.contains("videos/\(stranger).e1/master.m3u8") && !keys.contains("images/\(stranger).e3.webp"))
            #expect(keys.contains("videos/\(video.id).e1/master.m3u8"), "the published claim stays")
            #expect(
                keys.contains("videos/\(stranger)/master.m3u8") && keys.contains("images/\(stranger).webp")
                    && keys.contains("notes/readme.txt") && keys.contains("originals/\(orphan)"), "\(keys)")
            let requeued = try #require(try await rig.local.store.job(id: orphan))
            #expect(
                requeued.state == .queued && requeued.owner == nil && requeued.sourceName == Array("(recovered)".utf8))
        }
    }

    /// The store away while an upload is taken and its job published: the upload waits in scratch space, the job
    /// waits without spending attempts, and everything is published once the store is back.
    @Test func aStoreThatIsAwayDelaysWorkButLosesNothing() async throws {
        try await ObjectWorkerRig.with(
            retry: S3RetryPolicy(maxAttempts: 2, baseSeconds: 0.05, capSeconds: 0.1), ownServer: true
        ) {
            rig in
            await rig.server.stop()
            try rig.local.drop("photo.png", Array("kept while away".utf8))
            let worker = try rig.makeWorker(
                rig.configuration(ScriptedJobLauncher { _, _ in .publishImage }) { $0.once = false })
            let run = Task { try await worker.run() }
            // The upload is taken into scratch space and its job waits, held, until the store is back.
            let held = try await waitUntil(seconds: 60) {
                let jobs = try await rig.local.jobs()
                return jobs.count == 1 && jobs[0].state == .queued && jobs[0].owner != nil
            }
            #expect(held)
            #expect(
                rig.local.entries(".incoming").count == 1
                    && (try? Directory.entries(of: rig.local.inbox))?.isEmpty == true)
            try await rig.server.start()
            let published = try await waitUntil(seconds: 120) {
                try await rig.local.jobs().first?.state == .published
            }
            worker.requestStop()
            try await run.value
            let job = try #require(try await rig.local.jobs().first)
            #expect(published && job.attempts == 1, "\(job)")
            #expect(try await rig.keys() == ["images/\(job.id).e1.webp", "originals/\(job.id)"])
        }
    }

    /// A scratch disk too small for the original (a real tmpfs): the claim waits as on a full library disk, no
    /// attempt is spent, and nothing is lost.
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func aFullScratchDiskPausesClaimsAsAFullLibraryDiskDoes() async throws {
        try await ObjectWorkerRig.with { rig in
            let id = "00112233445566778899"
            let bytes = [UInt8](repeating: 1, count: 3 << 20)
            try await rig.client.put(
                ObjectKey("originals/\(id)"), bytes: .init(bytes: bytes), contentType: "application/octet-stream",
                cacheControl: "private, no-store")
            try await rig.local.store.insertJob(
                id: id, sourceName: Array("big.mp4".utf8), bytes: bytes.count, owner: "aa", now: 1,
                leaseMilliseconds: 1)
            try await rig.local.store.release(JobLease(id: id, epoch: 0, owner: "aa"), now: 1)
            let directory = try TemporaryDirectory()
            let mount = directory.file("scratch-fs")
            try Directory.create(mount)
            let mounted = try await ChildProcess.run(
                ["/bin/mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mount], within: .seconds(60))
            try #require(mounted.status == 0, "mount: \(mounted.stderr)")
            // Unmounted after the rest whether it returned or threw (`defer` cannot await).
            do {
                try await Self.waitOnFullScratch(rig, id: id, mount: mount)
            } catch {
                _ = try? await ChildProcess.run(["/bin/umount", "-l", mount], within: .seconds(60))
                throw error
            }
            _ = try? await ChildProcess.run(["/bin/umount", "-l", mount], within: .seconds(60))
        }
    }

    static func waitOnFullScratch(_ rig: ObjectWorkerRig, id: String, mount: String) async throws {
        do {
            let small = try WorkerRig(sharingCatalogOf: rig.local, root: mount)
            let worker = try small.makeWorker(
                rig.configuration(ScriptedJobLauncher { _, _ in .publishImage }, on: small) { $0.once = false })
            let run = Task { try await worker.run() }
            let waiting = try await waitUntil(seconds: 60) {
                let job = try await rig.local.store.job(id: id)
                return job?.state == .queued && job?.reason == .failed(.diskFull) && worker.status.diskFull != nil
            }
            worker.requestStop()
            try await run.value
            let job = try #require(try await rig.local.store.job(id: id))
            #expect(waiting && job.attempts == 0, "\(job)")
            #expect(try await rig.keys() == ["originals/\(id)"], "the original is untouched")
            #expect(small.entries(".staging").isEmpty, "the partial download is gone")
        }
    }
}

/// Suspends (never blocks) until `condition` holds or `seconds` pass.
func waitUntil(seconds: Double, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}
