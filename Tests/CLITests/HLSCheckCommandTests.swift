import Foundation
import MediaFixtures
import TestTraits
import Testing
import Transcode

#if canImport(Glibc)
import Glibc
#endif

/// `reel hls-check` seen from outside: exit codes, the JSON report and the human listing, on a ladder made by
/// Reel's own transcoder.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct HLSCheckCommandTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    static let preset = LadderPreset(
        segmentSeconds: 2, keyframeIntervalSeconds: 1, maxFrameRate: 30, x264Preset: "veryfast",
        audio: .init(sampleRate: 48_000, channels: 2),
        rungs: [
            .init(id: "90p", shortSide: 90, crf: 28, maxBitrateKbps: 300, bufferKbits: 600, audioBitrateKbps: 64),
            .init(id: "180p", shortSide: 180, crf: 28, maxBitrateKbps: 600, bufferKbits: 1200, audioBitrateKbps: 96),
        ],
        poster: .init(searchSeconds: 1, rung: "180p")
    )

    func makeLadder() throws -> (output: String, summary: TranscodeSummary) {
        let source = directory.file("clip.mp4")
        try SyntheticVideo(width: 180, height: 320, seconds: 4).write(to: source)
        let output = directory.file("ladder")
        return (output, try LadderTranscoder(preset: Self.preset).run(source: source, output: output))
    }

    @Test func transcodedLadderPassesWithItsIFramePlaylists() async throws {
        let (output, summary) = try makeLadder()
        let result = try await ReelProcess.run(["hls-check", output, "--json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.json["passed"] as? Bool == true)
        #expect(result.json["must_count"] as? Int == 0)
        #expect((result.json["findings"] as? [[String: Any]])?.isEmpty == true, "\(result.stdout)")
        let variants = try #require(result.json["variants"] as? [[String: Any]])
        #expect(variants.map { $0["playlist"] as? String } == summary.renditions.map(\.playlist))
        #expect(variants.map { $0["measured_codecs"] as? String } == summary.renditions.map(\.codecs))
        #expect(variants.map { $0["bandwidth"] as? Int } == summary.renditions.map(\.bandwidth))
    }

    @Test func waivedRuleExitsZeroAndSaysSo() async throws {
        let (output, _) = try makeLadder()
        // Without its I-frame playlists listed, a ladder breaks 6.1; waived, it passes and says so.
        let master = try String(contentsOfFile: output + "/master.m3u8", encoding: .utf8)
        try master.split(separator: "\n").filter { !$0.hasPrefix("#EXT-X-I-FRAME-STREAM-INF") }.joined(separator: "\n")
            .appending("\n").write(toFile: output + "/master.m3u8", atomically: true, encoding: .utf8)
        #expect(try await ReelProcess.run(["hls-check", output]).status == 1)
        let json = try await ReelProcess.run(["hls-check", output, "--waive", "6.1", "--json"])
        #expect(json.status == 0, "\(json.stdout)\(json.stderr)")
        #expect(json.json["passed"] as? Bool == true)
        #expect((json.json["findings"] as? [[String: Any]])?.first?["waived"] as? Bool == true)
        let human = try await ReelProcess.run(["hls-check", output + "/master.m3u8", "--waive", "6.1"])
        #expect(human.status == 0)
        #expect(human.stdout.contains("master.m3u8\n  MUST   6.1: no EXT-X-I-FRAME-STREAM-INF"))
        #expect(human.stdout.contains("(waived)"))
        #expect(
            human.stdout.contains("    VIDEO-RANGE SDR (measured SDR), 8-bit primaries 1 (bt709), transfer 1 (bt709)"),
            "the colour of each variant: \(human.stdout)")
        #expect(human.stdout.hasSuffix("PASS: 0 MUST, 0 SHOULD, 1 waived\n"))
    }

    @Test func brokenLadderListsFindingsUnderTheirFiles() async throws {
        let (output, _) = try makeLadder()
        try FileManager.default.removeItem(atPath: output + "/180p/seg_001.m4s")
        let result = try await ReelProcess.run(["hls-check", output])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("180p/index.m3u8\n  MUST   RFC8216 3: seg_001.m4s does not exist"),
            "\(result.stdout)")
        #expect(result.stdout.contains("FAIL: "))
    }

    @Test func missingDirectoryIsAUsageError() async throws {
        let result = try await ReelProcess.run(["hls-check", directory.file("nothing")])
        #expect(result.status == 64)
        #expect(result.stderr.contains("no such directory or file"))
    }

    @Test func ladderServedOverHTTPIsCheckedLikeTheDirectory() async throws {
        guard
            let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(
                where: FileManager.default.isExecutableFile)
        else { return }
        let (output, _) = try makeLadder()
        let port = try FreePort.pick()
        let server = try ChildProcess([
            python, "-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", output,
        ])
        try await withProcesses([server]) {
            let base = "http://127.0.0.1:\(port)/"
            // curl, not a synchronous Data(contentsOf:) GET on a thread of the concurrency pool; -f: a 404 is not served.
            let served = await ChildProcess.suspendUntil(seconds: 10) {
                (try? await ChildProcess.run(
                    ["/usr/bin/curl", "-sf", "--max-time", "5", "-o", "/dev/null", base + "master.m3u8"],
                    within: .seconds(10)
                ).status) == 0
            }
            #expect(served, "python's http.server did not serve master.m3u8 within 10 s: \(server.stderr)")
            let overHTTP = try await ReelProcess.run(["hls-check", base, "--json"])
            let onDisk = try await ReelProcess.run(["hls-check", output, "--json"])
            #expect(overHTTP.status == 0, "\(overHTTP.stdout)\(overHTTP.stderr)")
            #expect((overHTTP.json["findings"] as? [[String: Any]])?.isEmpty == true, "\(overHTTP.stdout)")
            #expect(overHTTP.json["variants"] as? NSArray == onDisk.json["variants"] as? NSArray)
        }
    }
}
