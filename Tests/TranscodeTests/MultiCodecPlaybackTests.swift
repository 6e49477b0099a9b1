import Foundation
import MediaFixtures
import TestTraits
import Testing

@testable import Transcode

/// Issue 16: every variant of an H.264/HEVC/AV1 ladder plays in GStreamer, and its H.264 and AV1 variants play in
/// Chromium with hls.js (HEVC too, where MediaSource takes `hvc1`; Debian's Chromium does not). Judged on what the
/// players report (exit status, frames, sizes, the levels kept, errors), never on how long anything took.
@Suite(.offThePool, .timeLimit(.minutes(15))) struct MultiCodecPlaybackTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// Two rungs, 180x320 and 270x480 from a 360x640 clip (270 is not a multiple of 8: the encoders crop), in each
    /// of the three codecs: six variants of two 2 s segments.
    static var preset: LadderPreset {
        var preset = MultiCodecLadderTests.threeCodecs
        preset.rungs = Array(preset.rungs[1...2])
        preset.poster.rung = preset.rungs[0].id
        return preset
    }

    func makeLadder() throws -> (summary: TranscodeSummary, folder: String) {
        let source = directory.file("vertical.mp4")
        try SyntheticVideo(width: 360, height: 640, seconds: 4).write(to: source)
        let folder = directory.file("vertical.hls")
        let summary = try LadderTranscoder(preset: Self.preset).run(source: source, output: folder)
        let sizes = summary.renditions.map { "\($0.id) \($0.width)x\($0.height)" }
        #expect(
            sizes == [
                "180p 180x320", "270p 270x480", "180p-hevc 180x320", "270p-hevc 270x480",
                "180p-av1 180x320", "270p-av1 270x480",
            ])
        #expect(summary.renditions.allSatisfy { $0.frames == 120 && $0.segments == 2 })
        return (summary, folder)
    }

    /// GStreamer's hlsdemux2 plays each variant's media playlist to EOS, every frame reaching the sink, and its
    /// decoders give every frame at the variant's size; and each codec's own master (`master-<codec>.m3u8`). Not the full master: GStreamer 1.22 picks variants by
    /// bandwidth alone and cannot switch codec within one stream (docs/cli.md, `reel transcode`).
    @Test(.enabled(if: GStreamer.playScript != nil, "needs gst-launch-1.0 and ../shared/anchors/play_hls_gst.sh"))
    func gstreamerPlaysEveryVariantToTheEnd() async throws {
        let script = try #require(GStreamer.playScript)
        let (summary, folder) = try makeLadder()
        for rendition in summary.renditions {
            let result = try await GStreamer.run(script, folder, playlist: rendition.playlist)
            #expect(result.status == 0, "GStreamer could not play \(rendition.id): \(result.output)")
            let frames = result.output.firstMatch(of: /video_frames=(\d+)/).flatMap { Int($0.1) }
            // A missing segment still ends in EOS with exit status 0: only the frame count shows it.
            #expect(frames == rendition.frames, "\(rendition.id): \(frames as Any) frames; \(result.output)")
            let size = "\(rendition.width)x\(rendition.height)"
            // The anchor's size report may be empty (its caps notify can go unprinted), never wrong.
            let reported = result.output.firstMatch(of: /sizes=\[([^\]]*)\]/).map { String($0.1) }
            #expect(reported == size || reported == "", "\(rendition.id): \(result.output)")
            let decoded = try await GStreamer.decodedVideo(
                playlist: rendition.playlist, in: folder, scratch: directory.file("\(rendition.id).mp4"))
            #expect(
                decoded.sizes == [size] && decoded.frames == rendition.frames,
                "\(rendition.id): GStreamer decoded \(decoded.frames) frames at \(decoded.sizes); \(decoded.output)")
        }
        for codec in ["h264", "hevc", "av1"] {
            let master = "master-\(codec).m3u8"
            let text = try String(contentsOfFile: folder + "/" + master, encoding: .utf8)
            let listed = summary.renditions.filter { text.contains("\n\($0.playlist)\n") }.map {
                $0.videoCodec?.rawValue
            }
            #expect(listed == [codec, codec], "\(master) lists \(listed)")
            let result = try await GStreamer.run(script, folder, playlist: master)
            let frames = result.output.firstMatch(of: /video_frames=(\d+)/).flatMap { Int($0.1) }
            #expect(result.status == 0 && frames == 120, "GStreamer could not play \(master): \(result.output)")
        }
    }

    /// hls.js in Chromium keeps every H.264 and AV1 variant and plays each, pinned, to its end at its own size; an
    /// HEVC variant is dropped only when MediaSource says it cannot take its CODECS, and played otherwise.
    @Test func chromiumPlaysEveryH264AndAV1VariantWithHLSJS() async throws {
        let hlsJS = Self.packageRoot.appendingPathComponent(".build/vendor/hls.mjs").path
        try #require(
            FileManager.default.fileExists(atPath: hlsJS),
            "hls.js is missing: scripts/install-deps.sh test runs scripts/fetch-hlsjs.py")
        let (summary, folder) = try makeLadder()
        let driver = Self.packageRoot.appendingPathComponent("Tests/Browser/hls_variants_browser.py").path
        let run = try await ChildProcess.run(
            [
                "/usr/bin/timeout", "300", "python3", driver, "--ladder", folder,
                "--hls-js", hlsJS, "--out", directory.file("chromium"),
            ], within: .seconds(330))
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
            "no report: \(run.stdout) \(run.stderr)")
        try #require(run.status == 0 && report["harnessError"] == nil, "\(report["harnessError"] ?? run.stderr)")

        func byURI(_ key: String) -> [String: [String: Any]] {
            let entries = (report[key] as? [[String: Any]] ?? []).compactMap { entry in
                (entry["uri"] as? String).map { ($0, entry) }
            }
            return Dictionary(entries) { first, _ in first }
        }
        let variants = byURI("variants"), levels = byURI("levels"), played = byURI("played")
        #expect(Set(variants.keys) == Set(summary.renditions.map(\.playlist)), "the master lists \(variants.keys)")
        for rendition in summary.renditions {
            let codec = try #require(rendition.videoCodec)
            guard let level = levels[rendition.playlist] else {
                let supported = variants[rendition.playlist]?["typeSupported"] as? Bool
                let why = "hls.js dropped \(rendition.id) (\(rendition.codecs)); isTypeSupported: \(supported as Any)"
                #expect(codec == .hevc, Comment(rawValue: why))
                #expect(supported == false, Comment(rawValue: why))
                continue
            }
            #expect(
                level["width"] as? Int == rendition.width && level["height"] as? Int == rendition.height,
                "\(rendition.id): \(level)")
            let playback = try #require(played[rendition.playlist], "\(rendition.id) was kept but never pinned")
            Self.expectPlayedToTheEnd(rendition, pinnedAs: level["index"] as? Int, playback)
        }
        #expect((report["errors"] as? [Any] ?? []).isEmpty, "parsing the master: \(report["errors"] ?? "")")
        #expect((report["failedRequests"] as? [Any] ?? []).isEmpty, "\(report["failedRequests"] ?? "")")
        #expect((report["console"] as? [Any] ?? []).isEmpty, "\(report["console"] ?? "")")
    }

    /// One pinned level's playback: it ended, showed only its own size, decoded frames, took every fragment from its
    /// own playlist and no other, stayed on its level, and had no fatal error.
    static func expectPlayedToTheEnd(
        _ rendition: TranscodeSummary.Rendition, pinnedAs index: Int?,
        _ playback: [String: Any]
    ) {
        let context = Comment(rawValue: "\(rendition.id): \(playback)")
        let size = "\(rendition.width)x\(rendition.height)"
        #expect(playback["ended"] as? Bool == true, context)
        #expect(playback["videoWidth"] as? Int == rendition.width, context)
        #expect(playback["videoHeight"] as? Int == rendition.height, context)
        #expect(playback["sizes"] as? [String] == [size], context)
        #expect((playback["decodedFrames"] as? Int ?? 0) > 0, context)
        let fragments = playback["fragments"] as? [String: [Int]] ?? [:]
        #expect(Array(fragments.keys) == [rendition.playlist], context)
        #expect(fragments[rendition.playlist]?.count == rendition.segments, context)
        #expect((playback["switchedTo"] as? [Int] ?? []).allSatisfy { $0 == index }, context)
        #expect((playback["errors"] as? [[String: Any]] ?? []).allSatisfy { $0["fatal"] as? Bool != true }, context)
        #expect(playback["mediaError"] is NSNull, context)
    }

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }
}

extension GStreamer {
    /// One playlist of a ladder folder, with `run`'s three attempts (hlsdemux2 can give up on a saturated machine),
    /// each bounded by `limit`.
    static func run(
        _ script: String, _ directory: String, playlist: String,
        within limit: Duration = .seconds(330)
    ) async throws -> (status: Int32, output: String) {
        var result = try await ChildProcess.run([script, directory, playlist], within: limit)
        for _ in 2...3 where result.status != 0 {
            result = try await ChildProcess.run([script, directory, playlist], within: limit)
        }
        return (result.status, result.stdout + result.stderr)
    }
}
