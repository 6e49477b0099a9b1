import FileSystem
import Foundation
import Ingest
import MediaFixtures
import MediaModel
import TestTraits
import Testing
import Transcode

@testable import Worker

/// Issue 64 in the job process: a video job leaves a provisional rendition (`playable/` and `playable.json`) beside
/// its ladder, and one whose provisional step fails still makes its ladder.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct PlayableJobRunnerTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    func invocation(source: String) throws -> JobInvocation {
        let staging = directory.file("staging")
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        return JobInvocation(
            jobID: "job", source: source, staging: staging, memoryMegabytes: 2048, cpuSeconds: 120,
            ladderPath: nil, limitsPath: nil, fault: nil)
    }

    @Test func aVideoJobLeavesAPlayableRenditionAndItsLadder() throws {
        let source = directory.file("clip.mp4")
        try SyntheticVideo(width: 320, height: 180, seconds: 4).write(to: source)
        let job = try invocation(source: source)
        let outcome = JobRunner(policy: AdmissionPolicy(), ladder: JobRunnerTests.ladder).process(job)
        let summary = try #require(outcome.video, "\(outcome)")
        #expect(summary.renditions.map(\.id) == ["90p", "180p"])
        let data = try Data(contentsOf: URL(fileURLWithPath: job.playableFile))
        let playable = try JSONDecoder().decode(PlayableOutcome.self, from: data)
        #expect(playable.complete && playable.renditions.count == 1)
        #expect(playable.info?.video?.displayWidth == 320 && playable.info?.path == "")
        let rendition = try #require(playable.renditions.first)
        #expect(playable.durationSeconds > 3.9)
        for file in ["master.m3u8", rendition.playlist, playable.posterJPEG, playable.posterWebP] {
            #expect(FileManager.default.fileExists(atPath: job.playableDirectory + "/" + file), "\(file)")
        }
        let playlist = try String(contentsOfFile: job.playableDirectory + "/" + rendition.playlist, encoding: .utf8)
        #expect(playlist.contains("#EXT-X-ENDLIST"))
        // The ladder is untouched by it: its own master and rungs in media/.
        #expect(FileManager.default.fileExists(atPath: job.mediaDirectory + "/master.m3u8"))
    }

    @Test func aFailedProvisionalStepLeavesNothingAndTheLadderStillRuns() throws {
        let source = directory.file("clip.mp4")
        try SyntheticVideo(width: 320, height: 180, seconds: 3).write(to: source)
        let job = try invocation(source: source)
        // A file where the provisional rendition's directory would go: nothing can be written into it.
        try Data("in the way".utf8).write(to: URL(fileURLWithPath: job.playableDirectory))
        let outcome = JobRunner(policy: AdmissionPolicy(), ladder: JobRunnerTests.ladder).process(job)
        let summary = try #require(outcome.video, "\(outcome)")
        #expect(summary.renditions.count == 2)
        #expect(!FileManager.default.fileExists(atPath: job.playableFile))
        #expect(!FileManager.default.fileExists(atPath: job.playableDirectory))
        #expect(FileManager.default.fileExists(atPath: job.mediaDirectory + "/master.m3u8"))
    }
}
