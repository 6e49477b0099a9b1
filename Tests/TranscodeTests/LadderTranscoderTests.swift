import Foundation
import Ingest
import LibAV
import MediaFixtures
import MediaModel
import TestTraits
import Testing

@testable import Transcode

#if canImport(Glibc)
import Glibc
#endif

/// End-to-end ladders from generated phone-style clips, judged on what a player would read back.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct LadderTranscoderTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// The design's rules on small rungs (90/180/270 lines, 2 s segments, an IDR every second), so tests stay fast.
    static let small = LadderPreset(
        segmentSeconds: 2, keyframeIntervalSeconds: 1, maxFrameRate: 30, x264Preset: "veryfast",
        audio: .init(sampleRate: 48_000, channels: 2),
        rungs: [
            .init(id: "90p", shortSide: 90, crf: 28, maxBitrateKbps: 300, bufferKbits: 600, audioBitrateKbps: 64),
            .init(id: "180p", shortSide: 180, crf: 28, maxBitrateKbps: 600, bufferKbits: 1200, audioBitrateKbps: 96),
            .init(id: "270p", shortSide: 270, crf: 28, maxBitrateKbps: 900, bufferKbits: 1800, audioBitrateKbps: 128),
        ],
        poster: .init(searchSeconds: 2, rung: "180p")
    )

    func transcode(
        _ clip: SyntheticVideo, name: String, preset: LadderPreset = small
    ) throws -> (TranscodeSummary, String) {
        let source = directory.file(name)
        try clip.write(to: source)
        let output = directory.file(name + ".hls")
        let summary = try LadderTranscoder(preset: preset).run(source: source, output: output)
        return (summary, output)
    }

    /// Checks everything a ladder owes any source; returns each rung's reading.
    @discardableResult
    func checkLadder(
        _ summary: TranscodeSummary, at output: String, keyframeSeconds: Double
    ) throws -> [String: HLSRendition.Reading] {
        let master = try String(contentsOfFile: output + "/master.m3u8", encoding: .utf8)
        #expect(master.hasPrefix("#EXTM3U\n"))
        #expect(master.contains("#EXT-X-INDEPENDENT-SEGMENTS"))
        var readings: [String: HLSRendition.Reading] = [:]
        var keyframeTimes: [[Double]] = []
        for rendition in summary.renditions {
            #expect(master.contains("RESOLUTION=\(rendition.width)x\(rendition.height)"))
            #expect(master.contains("BANDWIDTH=\(rendition.bandwidth),AVERAGE-BANDWIDTH=\(rendition.averageBandwidth)"))
            #expect(master.contains(rendition.playlist))
            let hls = try HLSRendition(directory: output + "/" + rendition.id)
            #expect(hls.playlist.contains("#EXT-X-PLAYLIST-TYPE:VOD"))
            #expect(hls.playlist.contains("#EXT-X-INDEPENDENT-SEGMENTS"))
            #expect(hls.playlist.contains("#EXT-X-MAP:URI=\"init.mp4\""))
            #expect(hls.playlist.contains("#EXT-X-ENDLIST"))
            #expect(hls.segments.count == rendition.segments && !hls.segments.isEmpty)
            for (index, segment) in hls.segments.enumerated() {
                // Every segment opens with an IDR, and none is over the declared peak.
                let one = try HLSRendition.read(
                    try hls.joined([segment], to: directory.file("\(rendition.id)-\(index).mp4")), decode: false)
                #expect(
                    one.packets.first?.isKeyframe == true,
                    "\(rendition.id) segment \(index) does not start with a keyframe")
                let size =
                    try FileManager.default.attributesOfItem(atPath: hls.directory + "/" + segment.file)[.size] as! Int
                #expect(Double(size * 8) / segment.duration <= Double(rendition.bandwidth) + 1)
            }
            let whole = try HLSRendition.read(
                try hls.joined(hls.segments, to: directory.file("\(rendition.id)-all.mp4")))
            #expect(whole.video.codecName == "h264")
            #expect(whole.video.profileName == "High")
            #expect(whole.video.rotation == 0)
            #expect(whole.decodedFormat == .yuv420p)
            #expect(whole.decodedSize == (rendition.width, rendition.height))
            #expect(whole.decodedFrames == rendition.frames)
            let keyframes = whole.packets.filter(\.isKeyframe).map(\.time).sorted()
            for (a, b) in zip(keyframes, keyframes.dropFirst()) { #expect(b - a <= keyframeSeconds + 0.001) }
            keyframeTimes.append(keyframes)
            readings[rendition.id] = whole
        }
        for times in keyframeTimes.dropFirst() { #expect(times == keyframeTimes[0], "keyframes differ across rungs") }
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: output + "/poster.jpg"))
        let webp = try Data(contentsOf: URL(fileURLWithPath: output + "/poster.webp"))
        #expect(jpeg.starts(with: [0xFF, 0xD8]) && webp.starts(with: Array("RIFF".utf8)))
        return readings
    }

    @Test func verticalFullHDClipMakesThreeAlignedRungsThatGStreamerPlays() async throws {
        let (summary, output) = try transcode(
            SyntheticVideo(width: 1080, height: 1920, seconds: 2.5), name: "vertical.mp4", preset: .default)
        #expect(
            summary.renditions.map { "\($0.id) \($0.width)x\($0.height)" } == [
                "360p 360x640", "720p 720x1280", "1080p 1080x1920",
            ])
        #expect(summary.renditions.allSatisfy { $0.codecs.hasPrefix("avc1.64") && $0.codecs.hasSuffix(",mp4a.40.2") })
        let readings = try checkLadder(summary, at: output, keyframeSeconds: 2)
        #expect(readings["360p"]?.decodedFrames == 75)
        #expect(readings["1080p"]?.audio?.sampleRate == 48_000 && readings["1080p"]?.audio?.channelCount == 2)
        if let player = GStreamer.playScript {
            let result = try await GStreamer.run(player, output)
            #expect(result.status == 0, "GStreamer could not play the ladder: \(result.output)")
        }
    }

    @Test func sixtyFramesPerSecondBecomeThirty() throws {
        let (summary, output) = try transcode(
            SyntheticVideo(width: 270, height: 480, frameRate: (60, 1), seconds: 2), name: "sixty-vertical.mp4")
        #expect(summary.frameRate == 30)
        let readings = try checkLadder(summary, at: output, keyframeSeconds: 1)
        #expect(readings["270p"]?.decodedFrames == 60)
    }

    @Test func rotatedClipComesOutUprightWithoutATag() throws {
        var clip = SyntheticVideo(width: 320, height: 180, seconds: 2)
        clip.rotation = 90
        let (summary, output) = try transcode(clip, name: "rotated.mp4")
        #expect(summary.renditions.map { "\($0.width)x\($0.height)" } == ["90x160", "180x320"])
        try checkLadder(summary, at: output, keyframeSeconds: 1)
    }

    @Test func landscapeClipWithoutAudioGetsVideoOnlyRungs() throws {
        var clip = SyntheticVideo(width: 480, height: 270, seconds: 2)
        clip.audio = nil
        let (summary, output) = try transcode(clip, name: "silent.mp4")
        #expect(summary.renditions.map(\.width) == [160, 320, 480])
        #expect(summary.renditions.allSatisfy { $0.codecs.hasPrefix("avc1.") && !$0.codecs.contains("mp4a") })
        let readings = try checkLadder(summary, at: output, keyframeSeconds: 1)
        #expect(readings.values.allSatisfy { $0.audio == nil })
    }

    @Test func variableFrameRateBecomesConstant() throws {
        var clip = SyntheticVideo(width: 320, height: 180, frameRate: (30, 1), seconds: 2)
        clip.variableFrameRate = true
        let (summary, output) = try transcode(clip, name: "vfr.mp4")
        #expect(summary.frameRate == 30)
        let readings = try checkLadder(summary, at: output, keyframeSeconds: 1)
        let frames = try require(readings["180p"]).decodedFrames
        #expect(abs(frames - 60) <= 2, "\(frames) frames for 2 s at 30 fps")
        let times = try require(readings["180p"]).packets.map(\.time).sorted()
        for (a, b) in zip(times, times.dropFirst()) { #expect(abs((b - a) - 1.0 / 30) < 0.001) }
    }

    @Test func tenBitHEVCBecomesEightBitH264High() throws {
        var clip = SyntheticVideo(width: 320, height: 180, seconds: 1.5)
        clip.codec = "libx265"
        clip.tenBit = true
        let (summary, output) = try transcode(clip, name: "hevc10.mp4")
        let readings = try checkLadder(summary, at: output, keyframeSeconds: 1)
        #expect(readings.values.allSatisfy { $0.video.pixelFormat == .yuv420p && $0.video.profileName == "High" })
    }

    @Test func lowResolutionIsNeverUpscaled() throws {
        let (summary, output) = try transcode(SyntheticVideo(width: 240, height: 136, seconds: 1.5), name: "tiny.mp4")
        #expect(summary.renditions.map(\.id) == ["90p", "136p"])
        #expect(summary.renditions.last.map { "\($0.width)x\($0.height)" } == "240x136")
        try checkLadder(summary, at: output, keyframeSeconds: 1)
    }

    @Test func monoFortyFourKilohertzBecomesStereoFortyEight() throws {
        var clip = SyntheticVideo(width: 320, height: 180, seconds: 1.5)
        clip.audio = (44_100, 1)
        let (summary, output) = try transcode(clip, name: "mono.mp4")
        let readings = try checkLadder(summary, at: output, keyframeSeconds: 1)
        let audio = try require(readings["180p"]?.audio)
        #expect(audio.sampleRate == 48_000 && audio.channelCount == 2)
    }

    @Test func posterSkipsABlackOpening() throws {
        var clip = SyntheticVideo(width: 320, height: 180, seconds: 2)
        clip.blackLeadInFrames = 20
        let (summary, _) = try transcode(clip, name: "fade-in.mp4")
        #expect(summary.posterTimeSeconds >= 20.0 / 30)
        #expect(summary.posterTimeSeconds < 2)
    }

    @Test func rejectedUploadLeavesNothing() throws {
        let source = try directory.write("notes.mp4", Array("not a video at all".utf8))
        let output = directory.file("out")
        do {
            _ = try LadderTranscoder(preset: Self.small).run(source: source, output: output)
            Issue.record("a text file was transcoded")
        } catch {
            #expect(error.code == "unsupported_format")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.mp4"])
    }

    @Test func cancellationLeavesNothing() throws {
        let source = directory.file("clip.mp4")
        try SyntheticVideo(width: 320, height: 180, seconds: 2).write(to: source)
        let output = directory.file("out")
        do {
            _ = try LadderTranscoder(preset: Self.small).run(source: source, output: output, isCancelled: { true })
            Issue.record("a cancelled transcode published")
        } catch {
            #expect(error.code == "cancelled")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["clip.mp4"])
    }

    /// The HLS muxer expands printf patterns in segment names, so `%` in the output path is refused up front.
    @Test func outputPathWithAPercentIsRefusedBeforeAnythingIsWritten() throws {
        let source = directory.file("clip.mp4")
        try SyntheticVideo(width: 320, height: 180, seconds: 1).write(to: source)
        let error = #expect(throws: TranscodeError.self) {
            _ = try LadderTranscoder(preset: Self.small).run(source: source, output: directory.file("out%03d"))
        }
        #expect(error?.code == "output_failed")
        #expect(error?.message.contains("'%'") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["clip.mp4"])
    }

    @Test func existingOutputIsNeverOverwritten() throws {
        let source = directory.file("clip.mp4")
        try SyntheticVideo(width: 320, height: 180, seconds: 1.5).write(to: source)
        let output = directory.file("out")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: false)
        try directory.write("out/keep.txt", Array("mine".utf8))
        #expect(throws: TranscodeError.self) {
            _ = try LadderTranscoder(preset: Self.small).run(source: source, output: output)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["keep.txt"])
    }
}

/// The shared GStreamer anchor, when this machine has it (make test installs GStreamer).
enum GStreamer {
    /// gst-launch-1.0, where Debian's gstreamer1.0-tools or a local build puts it.
    static var launch: String? {
        ["/usr/bin/gst-launch-1.0", "/usr/local/bin/gst-launch-1.0"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    static var playScript: String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = root.deletingLastPathComponent().appendingPathComponent("shared/anchors/play_hls_gst.sh").path
        return launch != nil && FileManager.default.isExecutableFile(atPath: script) ? script : nil
    }

    /// hlsdemux2 itself sometimes gives up ("Couldn't download fragments", or aborts) when the parallel tests
    /// saturate the machine; a real fault in the stream fails all three attempts. Each attempt may take `limit` (the
    /// script's own gst-launch timeout is 300 s); past it the run throws `DeadlineExceeded` naming the command.
    static func run(
        _ script: String, _ directory: String, within limit: Duration = .seconds(330)
    ) async throws -> (status: Int32, output: String) {
        var result = try await ChildProcess.run([script, directory], within: limit)
        for _ in 2...3 where result.status != 0 {
            result = try await ChildProcess.run([script, directory], within: limit)
        }
        return (result.status, result.stdout + result.stderr)
    }

    /// The frame sizes and count GStreamer decodes from one variant (init segment and media segments in playlist
    /// order, joined into one fragmented MP4), read from the caps events and buffers reaching the sink. The anchor's
    /// `sizes=` reads the sink pad's caps *notify* instead, which gst-launch 1.22 sometimes never prints under load
    /// (docs/quirks.md, "GStreamer's caps notify").
    static func decodedVideo(
        playlist: String, in folder: String, scratch: String, within limit: Duration = .seconds(120)
    ) async throws -> (frames: Int, sizes: [String], output: String) {
        let path = folder + "/" + playlist
        let base = (path as NSString).deletingLastPathComponent
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let initSegment = try #require(text.firstMatch(of: /#EXT-X-MAP:URI="([^"]+)"/).map { String($0.1) })
        let segments = text.split(separator: "\n").filter { !$0.isEmpty && !$0.hasPrefix("#") }.map(String.init)
        var joined = Data()
        for name in [initSegment] + segments {
            joined.append(try Data(contentsOf: URL(fileURLWithPath: base + "/" + name)))
        }
        try joined.write(to: URL(fileURLWithPath: scratch))
        let result = try await ChildProcess.run(
            [
                try #require(launch), "-v", "filesrc", "location=\(scratch)", "!", "qtdemux", "name=demux",
                "demux.video_0",
                "!", "decodebin3", "!", "fakesink", "name=vsink", "silent=false", "sync=false",
            ], within: limit)
        let lines = result.stdout.split(separator: "\n")
        let frames = lines.filter { $0.contains("vsink: last-message = chain") }.count
        let sizes = lines.filter { $0.contains("vsink: last-message = event") && $0.contains("type: caps") }
            .compactMap { line in
                line.replacingOccurrences(of: "\\", with: "").firstMatch(of: /width=\(int\)(\d+), height=\(int\)(\d+)/)
                    .map { "\($0.1)x\($0.2)" }
            }
        guard result.status == 0 else {
            return (0, [], "gst-launch exited \(result.status): \(result.stderr.suffix(2000))")
        }
        return (frames, sizes, result.stderr.suffix(2000).description)
    }
}
