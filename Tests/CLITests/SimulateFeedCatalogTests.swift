import Catalog
import Foundation
import MediaFixtures
import MediaModel
import PrefetchSim
import SQLiteCatalog
import Testing

@testable import ReelCLI

/// `reel simulate --feed-catalog`: the simulator's videos come from a real library, with the sizes of its files.
@Suite(.timeLimit(.minutes(10))) struct SimulateFeedCatalogTests {
    @Test func theSimulatorCatalogCarriesTheSizesOfThePublishedFiles() async throws {
        let harness = try WorkerHarness()
        try await harness.dropVideo("clip.mp4", width: 720, height: 1280, seconds: 5)
        let run = try await harness.runOnce()
        #expect(run.status == 0, "\(run.stderr)")
        let published = try #require(try await harness.store.publishedVideos().first)

        let model = try #require(try await Reel.Simulate.feedVideos(at: harness.database).first)
        #expect(model.name == published.id)
        #expect(model.renditions.map(\.id) == ["360p", "720p"])
        #expect(model.estimatedRenditions.isEmpty)
        #expect(model.segmentMilliseconds.reduce(0, +) == published.durationMilliseconds)
        let video = model.shortVideo()
        for (rung, rendition) in model.renditions.enumerated() {
            let folder =
                harness.library + "/" + (published.masterPath ?? "").dropLast("master.m3u8".count) + rendition.id
            let playlist = try String(contentsOfFile: folder + "/index.m3u8", encoding: .utf8)
            let segments = playlist.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
            let hint = try #require(rendition.prefetch)
            #expect(!hint.firstSegments.isEmpty)
            #expect(model.initBytes(rung: rung) == (try size(folder + "/init.mp4")))
            #expect(video.initBytes[rung] == (try size(folder + "/init.mp4")))
            var window = try size(folder + "/init.mp4")
            for k in hint.firstSegments.indices {
                let bytes = try size(folder + "/" + segments[k])
                #expect(model.segmentBytes(rung: rung, segment: k) == bytes)
                #expect(video.chunkBytes[rung][k] == bytes)
                window += bytes
            }
            #expect(model.windowBytes(rung: rung) == window)
        }
    }

    @Test func aCatalogWithoutVideosIsAUsageError() async throws {
        let harness = try WorkerHarness()
        await #expect(throws: (any Error).self) { try await Reel.Simulate.feedVideos(at: harness.database) }
    }

    @Test(arguments: [
        (["--mode", "mmgc"], "--feed-catalog runs in client mode"),
        (["--retention", "/tmp"], "--retention goes with --catalog"),
        (["--catalog", "/tmp"], "give either --catalog or --feed-catalog"),
    ])
    func optionsThatDoNotFitAFeedCatalogAreUsageErrors(extra: [String], message: String) async throws {
        let harness = try WorkerHarness()
        let trace = harness.directory.file("trace")
        try "0 1\n1 1\n".write(toFile: trace, atomically: true, encoding: .utf8)
        let run = try await ReelProcess.run(
            ["simulate", "--network", trace, "--feed-catalog", harness.database] + extra)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    private func size(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }
}
