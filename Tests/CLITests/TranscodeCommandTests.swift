import Foundation
import MediaFixtures
import Testing

/// `reel transcode` as a real process: what its JSON summary and text report say about the storyboard.
@Suite struct TranscodeCommandTests {
    @Test func theJSONSummaryNamesTheStoryboardFilesAndGrid() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("clip.mp4")
        try SyntheticVideo(width: 180, height: 320, seconds: 3).write(to: clip)
        let output = directory.file("ladder")
        let result = try ReelProcess.run(["transcode", clip, "--output", output, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let last = try #require(result.stdout.split(separator: "\n").last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let storyboard = try #require(summary["storyboard"] as? [String: Any], "\(summary)")
        #expect(storyboard["vtt"] as? String == "storyboard.vtt" && storyboard["image"] as? String == "storyboard.webp")
        // 3 s at one per second; a 180x320 source is one 180x320 rung, whose tiles are 160x284.
        #expect(storyboard["count"] as? Int == 3 && storyboard["columns"] as? Int == 3 && storyboard["interval_seconds"] as? Int == 1)
        #expect(storyboard["tile_width"] as? Int == 160 && storyboard["tile_height"] as? Int == 284)
        for name in ["storyboard.vtt", "storyboard.webp"] {
            #expect(FileManager.default.fileExists(atPath: output + "/" + name), "\(name) is missing")
        }
    }

    @Test func theTextReportHasAStoryboardLine() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("clip.mp4")
        try SyntheticVideo(width: 320, height: 180, seconds: 2).write(to: clip)
        let result = try ReelProcess.run(["transcode", clip, "--output", directory.file("ladder")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  storyboard: 2 thumbnails every 1 s, 160x90 in 2 columns: storyboard.webp, storyboard.vtt"),
                "\(result.stdout)")
    }
}
