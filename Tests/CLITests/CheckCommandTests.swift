import Foundation
import MediaFixtures
import TestTraits
import Testing

/// The CLI contract: exit codes, JSON fields, and memory on hostile images, seen from outside the process.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct CheckCommandTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func pngBombIsRefusedWithoutAllocatingItsPixels() async throws {
        let path = try write("bomb.png", SyntheticImage.pngBomb(width: 16000, height: 16000))
        let result = try await ReelProcess.run(["check", path, "--json"], measuringPeakMemory: true)
        #expect(result.status == 65)
        #expect(result.json["accepted"] as? Bool == false)
        #expect(result.json["reason"] as? String == "pixel_count_exceeds_limit")
        #expect((result.json["message"] as? String)?.contains("16000x16000") == true)
        #expect(result.json["path"] as? String == path)
        // Decoding would need 16000*16000*4 bytes = 1 GB; the whole process must stay far below that.
        #expect(result.maxResidentKilobytes > 0)
        #expect(result.maxResidentKilobytes < 150_000, "peak RSS \(result.maxResidentKilobytes) kB")
    }

    @Test func acceptedClipExitsZeroWithItsFacts() async throws {
        let path = directory.appendingPathComponent("clip.mp4").path
        try SyntheticVideo(width: 180, height: 320, seconds: 1.2).write(to: path)
        let result = try await ReelProcess.run(["check", path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.json["accepted"] as? Bool == true)
        #expect(result.json["kind"] as? String == "video")
        let info = try #require(result.json["info"] as? [String: Any])
        let video = try #require(info["video"] as? [String: Any])
        #expect(video["display_width"] as? Int == 180)
        #expect(video["display_height"] as? Int == 320)
    }

    @Test func missingFileIsRefusedWithAReason() async throws {
        let path = directory.appendingPathComponent("nothing-here.mp4").path
        let result = try await ReelProcess.run(["check", path, "--json"])
        #expect(result.status == 65)
        #expect(result.json["reason"] as? String == "unreadable")
        #expect((result.json["message"] as? String)?.isEmpty == false)
    }

    @Test func humanOutputNamesTheReasonOnStandardError() async throws {
        let path = try write("notes.mp4", Array("just some text, not a video\n".utf8))
        let result = try await ReelProcess.run(["check", path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("unsupported_format"))
        #expect(result.stderr.contains(path))
    }

    @Test func probeJSONUsesStableSnakeCaseFields() async throws {
        let path = directory.appendingPathComponent("probe.mkv").path
        var clip = SyntheticVideo(width: 320, height: 180, seconds: 1)
        clip.container = "matroska"
        try clip.write(to: path)
        let result = try await ReelProcess.run(["probe", path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        for key in ["kind", "container", "file_size", "duration_seconds", "bit_rate", "stream_count", "video", "audio"]
        {
            #expect(result.json[key] != nil, "missing \(key)")
        }
        let video = try #require(result.json["video"] as? [String: Any])
        for key in [
            "codec", "profile", "pixel_format", "bit_depth", "coded_width", "display_width", "rotation",
            "average_frame_rate", "real_frame_rate",
        ] {
            #expect(video[key] != nil, "missing video.\(key)")
        }
        let table = try await ReelProcess.run(["probe", path])
        #expect(table.status == 0)
        #expect(table.stdout.contains("320x180"))
    }
}

extension CheckCommandTests {
    @Test func unreadableLimitsFileIsAUsageError() async throws {
        let limits = try write("limits.json", Array("{not json".utf8))
        let clip = try write("clip.png", try SyntheticImage.png(width: 4, height: 4, alpha: false))
        let result = try await ReelProcess.run(["check", clip, "--limits", limits])
        #expect(result.status == 64)
        #expect(result.stderr.contains(limits))
    }

    @Test func operatorLimitsAreApplied() async throws {
        let limits = try write("limits.json", Array(#"{"image": {"max_bytes": 10}}"#.utf8))
        let clip = try write("clip.png", try SyntheticImage.png(width: 4, height: 4, alpha: false))
        let result = try await ReelProcess.run(["check", clip, "--limits", limits, "--json"])
        #expect(result.status == 65)
        #expect(result.json["reason"] as? String == "too_large")
    }
}
