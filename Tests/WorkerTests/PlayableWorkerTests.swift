import Catalog
import FileSystem
import Foundation
import MediaModel
import SQLiteCatalog
import Testing

@testable import Worker

/// Issue 64: a job's provisional rendition is published while the job runs, and what becomes of it when the ladder
/// is published, fails, or the upload is refused. The jobs are scripted; the worker, catalog and library are real.
@Suite(.timeLimit(.minutes(5))) struct PlayableWorkerTests {
    /// Starts the worker on one dropped upload whose job hands over a provisional rendition and waits at `gate`;
    /// returns once the post is in the feed as playable, with the job's id and the worker's run.
    static func startPlayable(
        _ rig: WorkerRig, then: ScriptedJobLauncher.Script, gate: JobGate
    ) async throws -> (id: String, worker: Worker, run: Task<Void, any Error>) {
        try rig.drop("clip.mp4", Array("video bytes \(UUID())".utf8))
        let worker = try rig.makeWorker(
            rig.configuration(
                ScriptedJobLauncher { _, attempt in attempt == 1 ? .playable(then: then, gate: gate) : then })
        )
        let run = Task { try await rig.runUntilIdle(worker) }
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let job = try await rig.jobs().first, let item = try await rig.store.item(id: job.id),
                try item.video().stage == .playable
            {
                return (job.id, worker, run)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        gate.release()
        try await run.value
        throw PlayableNeverAppeared()
    }

    struct PlayableNeverAppeared: Error {}

    func playlist(_ rig: WorkerRig, _ id: String) throws -> String {
        String(
            decoding: try ReadOnlyFile.contents(of: rig.library + "/videos/\(id).e1.playable/360p/index.m3u8"),
            as: UTF8.self)
    }

    @Test func theProvisionalRenditionPlaysWhileTheJobRunsThenTheLadderTakesItsPlace() async throws {
        let rig = try WorkerRig()
        let gate = JobGate()
        let (id, worker, run) = try await Self.startPlayable(rig, then: .publishVideo, gate: gate)
        let playable = try #require(try await rig.store.item(id: id)).video()
        #expect(playable.masterPath == "videos/\(id).e1.playable/master.m3u8")
        #expect(playable.posterWebPPath == "videos/\(id).e1.playable/poster.webp")
        #expect(playable.renditions.map(\.rung) == ["360p"] && playable.durationMilliseconds == 6_000)
        #expect(rig.entries("videos/\(id).e1.playable") == ["360p", "master.m3u8", "poster.jpg", "poster.webp"])
        #expect(
            rig.entries("videos/\(id).e1.playable/360p") == ["index.m3u8", "init.mp4", "seg_000.m4s", "seg_001.m4s"])
        #expect(!(try playlist(rig, id)).contains("#EXT-X-ENDLIST"), "the growing playlist is published as it is")
        let running = try #require(try await rig.store.job(id: id))
        #expect(running.state == .processing && running.mediaID == id)
        #expect(
            MediaPolicy.cacheControl(forKey: "videos/\(id).e1.playable/360p/index.m3u8") == "public, max-age=1",
            "a growing playlist is cached for a second at most")

        gate.release()
        try await run.value
        let job = try #require(try await rig.store.job(id: id))
        #expect(job.state == .published && job.mediaID == id)
        let published = try #require(try await rig.store.item(id: id)).video()
        #expect(published.stage == .published && published.masterPath == "videos/\(id).e1/master.m3u8")
        #expect(published.publishedAt == playable.publishedAt, "the post keeps its place in the feed")
        // The provisional files stay for pages and players that still name them, until the sweep's grace is over.
        #expect(rig.entries("videos") == [id + ".e1", id + ".e1.playable"])
        try await worker.sweepLibrary(graceSeconds: -5)
        #expect(rig.entries("videos") == [id + ".e1"])
    }

    @Test func aFailedLadderKeepsTheProvisionalRenditionPlayingToItsEnd() async throws {
        let rig = try WorkerRig()
        let gate = JobGate()
        let (id, worker, run) = try await Self.startPlayable(
            rig, then: .fail(.encodeFailed, retryable: false), gate: gate)
        gate.release()
        try await run.value
        let job = try #require(try await rig.store.job(id: id))
        #expect(job.state == .failed && job.reason == .failed(.encodeFailed) && job.mediaID == id, "\(job)")
        let item = try #require(try await rig.store.item(id: id)).video()
        #expect(item.stage == .playable)
        let text = try playlist(rig, id)
        #expect(text.contains("seg_002.m4s") && text.hasSuffix("#EXT-X-ENDLIST\n"), "\(text)")
        #expect(rig.entries("videos/\(id).e1.playable/360p").contains("seg_002.m4s"))
        // The feed still plays it: the sweep keeps it.
        try await worker.sweepLibrary(graceSeconds: -5)
        #expect(rig.entries("videos") == [id + ".e1.playable"])
    }

    @Test func aRefusedUploadIsWithdrawnFromTheFeedAndItsMediaRemoved() async throws {
        let rig = try WorkerRig()
        let gate = JobGate()
        let (id, _, run) = try await Self.startPlayable(rig, then: .reject(.decodeError), gate: gate)
        let generation = try await rig.store.generation()
        gate.release()
        try await run.value
        let job = try #require(try await rig.store.job(id: id))
        #expect(job.state == .rejected && job.mediaID == nil)
        #expect(try await rig.store.item(id: id) == nil)
        #expect(try await rig.store.pageWithGeneration(limit: 10, after: nil).page.items.isEmpty)
        #expect(try await rig.store.generation() != generation, "cached feed pages are refetched")
        #expect(rig.entries("videos").isEmpty, "\(rig.entries("videos"))")
        #expect(rig.entries("rejected") == [id, id + ".reason.json"], "the original is kept beside its verdict")
    }

    /// Every state, epoch and row: a provisional rendition stays exactly while the feed plays it or its claim may
    /// still commit it.
    @Test func aProvisionalRenditionIsKeptExactlyWhileItMayBePlayed() {
        let id = "0123456789abcdef0123"
        let claim = LibraryLayout.Claim(id: id, epoch: 4, isPlayable: true)
        let own = LibraryLayout.playable(id, epoch: 4) + "/master.m3u8"
        for state in FeedJob.State.allCases {
            for epoch: Int64 in [3, 4, 5] {
                for master in [nil, own, LibraryLayout.playable(id, epoch: 5) + "/master.m3u8", "videos/x.e4/m.m3u8"] {
                    var job = FeedJob(
                        id: id, kind: .video, state: state, attempts: 1, lastError: nil, progress: 0, createdAt: 0,
                        updatedAt: 0, mediaID: id)
                    job.epoch = epoch
                    let expected = master == own || (epoch == 4 && state == .processing)
                    #expect(
                        Worker.keepsPlayable(claim, job: job, master: master) == expected,
                        "\(state) epoch \(epoch) \(master ?? "no row")")
                }
            }
        }
        #expect(LibraryLayout.claim(ofOutput: own) == claim)
        #expect(LibraryLayout.claim(ofOutput: "videos/\(id).e4/master.m3u8")?.isPlayable == false)
        #expect(LibraryLayout.claim(ofOutput: "videos/\(id).e4.playable") == nil)
        #expect(LibraryLayout.claim(ofOutput: "videos/\(id).e4.playablex/x") == nil)
        #expect(LibraryLayout.claim(ofOutput: "videos/\(id).playable/x") == nil)
        #expect(MediaPolicy.cacheControl(forKey: own) == MediaPolicy.playablePlaylistCacheControl)
        #expect(MediaPolicy.cacheControl(forKey: "videos/\(id).e4/master.m3u8") == MediaPolicy.playlistCacheControl)
        #expect(MediaPolicy.cacheControl(forKey: own + ".m4s") == MediaPolicy.immutableCacheControl)
    }

    /// An upload finished elsewhere and renamed into the inbox (its mtime kept, as `mv` and `cp -p` keep it) is
    /// taken at its first sighting: a settle time longer than the whole run would otherwise hold it.
    @Test func anUploadRenamedInWholeIsTakenWithoutWaitingOutTheSettleTime() async throws {
        let rig = try WorkerRig()
        let written = rig.root + "/clip.mp4"
        try Data("video bytes".utf8).write(to: URL(fileURLWithPath: written))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: written)
        try Directory.move(written, to: rig.inbox + "/clip.mp4")
        let worker = try rig.makeWorker(
            rig.configuration(ScriptedJobLauncher { _, _ in .publishVideo }) { $0.settleSeconds = 3600 })
        try await rig.runUntilIdle(worker, seconds: 120)
        #expect(try await rig.jobs().map(\.state) == [.published])
    }

    @Test func aPlaylistsFilesAreReadPlainAndEndedOnce() {
        let text = "#EXTM3U\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:2,\nseg_000.m4s\n\n#EXTINF:2,\nseg_001.m4s\n"
        #expect(
            PlayableSync.initSegments(listedIn: text) + PlayableSync.segments(listedIn: text) == [
                "init.mp4", "seg_000.m4s", "seg_001.m4s",
            ])
        #expect(PlayableSync.ended(text) == text + "#EXT-X-ENDLIST\n")
        #expect(PlayableSync.ended(PlayableSync.ended(text)) == text + "#EXT-X-ENDLIST\n")
        #expect(PlayableSync.ended("#EXTM3U") == "#EXTM3U\n#EXT-X-ENDLIST\n")
        #expect(PlayableSync.segments(listedIn: text) == ["seg_000.m4s", "seg_001.m4s"])
        #expect(PlayableSync.initSegments(listedIn: text) == ["init.mp4"])
    }

    /// A remuxed upload's whole VOD playlist is shown a few segments at a time while they are stored: always a valid
    /// EVENT playlist of the stored prefix, ended only once every segment is listed.
    @Test func aPlaylistIsShownAsFarAsItsStoredSegments() {
        let head = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
        let map = "#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MAP:URI=\"init.mp4\"\n"
        let segments = (0..<3).map { "#EXTINF:2.000000,\nseg_00\($0).m4s\n" }
        let vod = head + "#EXT-X-PLAYLIST-TYPE:VOD\n" + map + segments.joined() + "#EXT-X-ENDLIST\n"
        let event = head + "#EXT-X-PLAYLIST-TYPE:EVENT\n" + map
        for count in 0...3 {
            let expected = event + segments.prefix(count).joined() + (count == 3 ? "#EXT-X-ENDLIST\n" : "")
            #expect(PlayableSync.prefix(of: vod, segments: count) == expected, "\(count) segments")
        }
        #expect(PlayableSync.prefix(of: vod, segments: 9) == PlayableSync.prefix(of: vod, segments: 3))
        // A growing playlist stays unended whatever is stored.
        let growing = head + "#EXT-X-PLAYLIST-TYPE:EVENT\n" + map + segments.prefix(2).joined()
        #expect(PlayableSync.prefix(of: growing, segments: 2) == growing)
        #expect(!PlayableSync.isEnded(PlayableSync.prefix(of: growing, segments: 5)))
        for name in ["seg_000.m4s", "init.mp4", "360p", "poster.webp"] { #expect(PlayableSync.isPlainName(name)) }
        for name in [
            "", ".", "..", "../x", "a/b", "/etc/passwd", "seg 1.m4s", "é.m4s", String(repeating: "a", count: 65),
        ] {
            #expect(!PlayableSync.isPlainName(name), "\(name)")
        }
    }
}
