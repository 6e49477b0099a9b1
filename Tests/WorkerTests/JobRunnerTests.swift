import ChatImages
import FileSystem
import Foundation
import Ingest
import MediaFixtures
import MediaModel
import TestTraits
import Testing
import Transcode

@testable import Worker

/// One admission per upload: the job process opens an upload once to sniff it, once more (libav) to admit a video
/// and once to decode it, and reports the facts and prefetch hints the worker publishes without reading the outputs
/// again.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct JobRunnerTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    static let ladder = LadderPreset(
        segmentSeconds: 2, keyframeIntervalSeconds: 1, maxFrameRate: 30, x264Preset: "veryfast",
        audio: .init(sampleRate: 48_000, channels: 2),
        rungs: [
            .init(id: "90p", shortSide: 90, crf: 28, maxBitrateKbps: 300, bufferKbits: 600, audioBitrateKbps: 64),
            .init(id: "180p", shortSide: 180, crf: 28, maxBitrateKbps: 600, bufferKbits: 1200, audioBitrateKbps: 96),
        ],
        poster: .init(searchSeconds: 2, rung: "180p")
    )

    func invocation(source: String) throws -> JobInvocation {
        let staging = directory.file("staging")
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        return JobInvocation(
            jobID: "job", source: source, staging: staging, memoryMegabytes: 2048, cpuSeconds: 120,
            ladderPath: nil, limitsPath: nil, fault: nil)
    }

    /// And once more, for its audio alone, to measure its loudness (issue 61: the pre-pass has an input of its own).
    @Test func aVideoIsOpenedOnceToSniffOnceToAdmitOnceToMeasureItsLoudnessAndOnceToDecode() throws {
        let source = directory.file("clip.mp4")
        try SyntheticVideo(width: 320, height: 180, seconds: 4).write(to: source)
        let watcher = try OpenWatcher(path: source)
        let job = try invocation(source: source)
        let outcome = JobRunner(policy: AdmissionPolicy(), ladder: Self.ladder).process(job)
        let summary = try #require(outcome.video, "\(outcome)")
        // Before: three safe opens (sniff, check, the transcoder's admission) and three libav opens. The loudness
        // pre-pass reads the audio stream on an input of its own: one open more. The provisional rendition (issue 64)
        // reads the upload once for its scan and its copy or first rung, and once for its loudness: two more.
        #expect(watcher.opens() == 6)
        #expect(FileManager.default.fileExists(atPath: job.playableFile), "the job left a provisional rendition")
        #expect(outcome.info?.kind == .video && outcome.info?.video?.displayWidth == 320 && outcome.info?.path == "")
        // The hints the job reports are those of the files it wrote.
        for rendition in summary.renditions {
            let playlist = job.mediaDirectory + "/" + rendition.playlist
            let folder = (playlist as NSString).deletingLastPathComponent
            let text = try String(contentsOfFile: playlist, encoding: .utf8)
            let measured = PrefetchHint(mediaPlaylist: text) { uri in
                (try? FileStatus(path: folder + "/" + uri, followingSymlinks: false)).map { Int($0.size) }
            }
            let reported = try #require(rendition.prefetch, "\(rendition.id) has no hint")
            #expect(reported == measured)
            #expect(reported.firstSegments.count == 2 && reported.initBytes > 0)
        }
    }

    @Test func aJPEGIsOpenedOnceAndNeverByLibAV() throws {
        let source = directory.file("photo.jpg")
        try Data(try SyntheticImage.jpeg(width: 640, height: 480)).write(to: URL(fileURLWithPath: source))
        let watcher = try OpenWatcher(path: source)
        let job = try invocation(source: source)
        let outcome = JobRunner(policy: AdmissionPolicy(), ladder: Self.ladder).process(job)
        let image = try #require(outcome.image, "\(outcome)")
        #expect(image.width == 640 && image.height == 480)
        #expect(watcher.opens() == 1)
    }

    @Test func anUploadThatIsNeitherIsRejectedAfterOneOpen() throws {
        let source = directory.file("notes.txt")
        try Data(String(repeating: "not a video\n", count: 100).utf8).write(to: URL(fileURLWithPath: source))
        let watcher = try OpenWatcher(path: source)
        let outcome = JobRunner(policy: AdmissionPolicy(), ladder: Self.ladder).process(try invocation(source: source))
        #expect(outcome.video == nil && outcome.image == nil)
        guard case let .rejected(rejection) = outcome.error else {
            Issue.record("not rejected: \(outcome)")
            return
        }
        #expect(rejection.reason == .unsupportedFormat, "\(rejection)")
        #expect(watcher.opens() == 1)
    }
}
