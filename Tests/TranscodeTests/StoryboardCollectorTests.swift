import Foundation
import LibAV
import LibWebP
import MediaFixtures
import MediaModel
import TestTraits
import Testing

@testable import Transcode

/// Storyboards made by real ladders from generated clips, judged on the files a player would read.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct StoryboardCollectorTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    struct Cue {
        var start: Double
        var end: Double
        var image: String
        var x, y, width, height: Int
    }

    struct Reading {
        var storyboard: Storyboard
        var sheet: WebPImage
        var cues: [Cue]
    }

    func transcode(_ clip: SyntheticVideo, name: String) throws -> (TranscodeSummary, String) {
        let source = directory.file(name)
        try clip.write(to: source)
        return try transcode(path: source, name: name)
    }

    func transcode(path: String, name: String) throws -> (TranscodeSummary, String) {
        let output = directory.file(name + ".hls")
        return (try LadderTranscoder(preset: LadderTranscoderTests.small).run(source: path, output: output), output)
    }

    /// Reads the storyboard back and checks what every storyboard owes a player; `seconds` is the video's length.
    func readStoryboard(_ summary: TranscodeSummary, at output: String, seconds: Double) throws -> Reading {
        let storyboard = try #require(summary.storyboard)
        #expect(storyboard.vttPath == "storyboard.vtt" && storyboard.imagePath == "storyboard.webp")
        let sheet = try WebPImage(
            decoding: Array(try Data(contentsOf: URL(fileURLWithPath: output + "/" + storyboard.imagePath))))
        #expect(
            sheet.width == storyboard.columns * storyboard.tileWidth
                && sheet.height == storyboard.rows * storyboard.tileHeight)
        #expect(!sheet.hasAlpha)
        let text = try String(contentsOfFile: output + "/" + storyboard.vttPath, encoding: .utf8)
        #expect(text.hasPrefix("WEBVTT\n\n"))
        let cues = try Self.parse(text)
        #expect(cues.count == storyboard.count)
        #expect(cues.first?.start == 0)
        for (previous, next) in zip(cues, cues.dropFirst()) { #expect(previous.end == next.start) }
        #expect(
            abs((cues.last?.end ?? 0) - seconds) < 0.001,
            "the cues end at \(cues.last?.end ?? 0), the video at \(seconds)")
        for cue in cues {
            #expect(cue.image == "storyboard.webp")
            #expect(cue.width == storyboard.tileWidth && cue.height == storyboard.tileHeight)
            #expect(
                cue.x >= 0 && cue.y >= 0 && cue.x + cue.width <= sheet.width && cue.y + cue.height <= sheet.height,
                "\(cue)")
            #expect(cue.end - cue.start <= Double(storyboard.intervalSeconds) + 0.0005)
        }
        return Reading(storyboard: storyboard, sheet: sheet, cues: cues)
    }

    /// WebVTT cues of the form "hh:mm:ss.ttt --> hh:mm:ss.ttt" followed by "image#xywh=x,y,w,h".
    static func parse(_ text: String) throws -> [Cue] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        var cues: [Cue] = []
        var index = 1
        func seconds(_ stamp: Substring) throws -> Double {
            let parts = stamp.split(separator: ":")
            try #require(parts.count == 3, "\(stamp)")
            return try #require(Double(parts[0])) * 3600 + (try #require(Double(parts[1]))) * 60
                + (try #require(Double(parts[2])))
        }
        while index + 1 < lines.count {
            let times = lines[index].split(separator: " --> ")
            try #require(times.count == 2, "\(lines[index])")
            let payload = lines[index + 1].split(separator: "#xywh=")
            try #require(payload.count == 2, "\(lines[index + 1])")
            let numbers = payload[1].split(separator: ",").compactMap { Int($0) }
            try #require(numbers.count == 4, "\(lines[index + 1])")
            cues.append(
                Cue(
                    start: try seconds(times[0]), end: try seconds(times[1]), image: String(payload[0]),
                    x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]))
            index += 2
        }
        #expect(index == lines.count, "a line is left over")
        return cues
    }

    /// Mean of R, G and B over a rectangle of the sheet.
    static func mean(_ sheet: WebPImage, x: Int, y: Int, width: Int, height: Int) -> (r: Double, g: Double, b: Double) {
        var sums = (0.0, 0.0, 0.0)
        for row in y..<y + height {
            for column in x..<x + width {
                let offset = (row * sheet.width + column) * 4
                sums.0 += Double(sheet.rgba[offset])
                sums.1 += Double(sheet.rgba[offset + 1])
                sums.2 += Double(sheet.rgba[offset + 2])
            }
        }
        let count = Double(width * height)
        return (sums.0 / count, sums.1 / count, sums.2 / count)
    }

    @Test func fifteenSecondClipGetsOneThumbnailPerSecondShowingThatSecond() throws {
        var clip = SyntheticVideo(width: 360, height: 640, seconds: 15)
        clip.content = .greyPerSecond
        let (summary, output) = try transcode(clip, name: "grey-steps.mp4")
        let seconds = Double(try #require(summary.renditions.first).frames) / summary.frameRate
        let reading = try readStoryboard(summary, at: output, seconds: seconds)
        // The poster rung (180p) is 180x320: tiles are 160x284, in 10 columns.
        #expect(reading.storyboard.count == 15 && reading.storyboard.intervalSeconds == 1)
        #expect(
            reading.storyboard.tileWidth == 160 && reading.storyboard.tileHeight == 284
                && reading.storyboard.columns == 10)
        #expect(reading.sheet.width == 1600 && reading.sheet.height == 568)
        // Limited-range grey Y' becomes full-range grey (Y' - 16) * 255 / 219; each tile is nearest its own second's.
        let expected = (0..<15).map { (Double(SyntheticVideo.luma(second: $0)) - 16) * 255 / 219 }
        for (second, cue) in reading.cues.enumerated() {
            let mean = Self.mean(reading.sheet, x: cue.x, y: cue.y, width: cue.width, height: cue.height)
            let grey = (mean.r + mean.g + mean.b) / 3
            #expect(abs(grey - expected[second]) < 10, "second \(second): grey \(grey), expected \(expected[second])")
            #expect(abs(mean.r - mean.g) < 6 && abs(mean.g - mean.b) < 6, "second \(second) is not grey: \(mean)")
            let nearest = expected.indices.min { abs(expected[$0] - grey) < abs(expected[$1] - grey) }
            #expect(nearest == second, "tile \(second) shows second \(nearest ?? -1)")
        }
    }

    @Test func oddFrameRateAndPartSecondEndStillCoverTheWholeVideo() throws {
        var clip = SyntheticVideo(width: 320, height: 180, frameRate: (30000, 1001), seconds: 2.5)
        clip.content = .greyPerSecond
        clip.audio = nil
        let (summary, output) = try transcode(clip, name: "ntsc.mp4")
        let seconds = Double(try #require(summary.renditions.first).frames) / summary.frameRate
        let reading = try readStoryboard(summary, at: output, seconds: seconds)
        #expect(reading.storyboard.count == 3 && reading.storyboard.columns == 3)
        // Landscape 320x180 (the 180p rung): the tile keeps 16:9.
        #expect(reading.storyboard.tileWidth == 160 && reading.storyboard.tileHeight == 90)
    }

    /// Admission refuses clips under 1 s; the shortest it takes still ends in a cue of its own.
    @Test func clipJustOverASecondEndsWithAShortCue() throws {
        let (summary, output) = try transcode(SyntheticVideo(width: 180, height: 320, seconds: 1.2), name: "short.mp4")
        let seconds = Double(try #require(summary.renditions.first).frames) / summary.frameRate
        let reading = try readStoryboard(summary, at: output, seconds: seconds)
        #expect(reading.storyboard.count == 2 && reading.storyboard.columns == 2)
        #expect(
            reading.sheet.width == 2 * reading.storyboard.tileWidth
                && reading.sheet.height == reading.storyboard.tileHeight)
        #expect(reading.cues.map(\.start) == [0, 1] && abs(reading.cues[1].end - 1.2) < 0.001)
    }

    @Test func rotatedSampleGetsPortraitThumbnails() throws {
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleMedia/rotated-90-640x360.mp4").path
        let (summary, output) = try transcode(path: sample, name: "rotated-sample")
        let seconds = Double(try #require(summary.renditions.first).frames) / summary.frameRate
        let reading = try readStoryboard(summary, at: output, seconds: seconds)
        // Stored 640x360 with a 90° display rotation: upright it is 360x640, and so are the tiles.
        #expect(reading.storyboard.tileWidth == 160 && reading.storyboard.tileHeight == 284)
    }

    @Test func rotatedClipGetsUprightThumbnails() throws {
        var clip = SyntheticVideo(width: 320, height: 180, seconds: 2)
        clip.rotation = 90
        clip.content = .brightLeftHalf
        let (summary, output) = try transcode(clip, name: "rotated-halves.mp4")
        let seconds = Double(try #require(summary.renditions.first).frames) / summary.frameRate
        let reading = try readStoryboard(summary, at: output, seconds: seconds)
        #expect(reading.storyboard.tileWidth == 160 && reading.storyboard.tileHeight == 284)
        // Turned 90° clockwise, the stored left half is the picture's top half.
        for cue in reading.cues {
            let half = cue.height / 2
            let top = Self.mean(reading.sheet, x: cue.x, y: cue.y + 4, width: cue.width, height: half - 8)
            let bottom = Self.mean(reading.sheet, x: cue.x, y: cue.y + half + 4, width: cue.width, height: half - 8)
            #expect(top.g > 200 && bottom.g < 40, "top \(top), bottom \(bottom)")
        }
    }
}

/// The collector on its own, fed pictures slot by slot: timing on the integer clock, and the cap.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct StoryboardCollectorTimingTests {
    func picture() throws -> Frame {
        let frame = try Frame(width: 64, height: 36, pixelFormat: .yuv420p)
        try frame.fillPlanes { plane, _, _ in plane == 0 ? 120 : 128 }
        return frame
    }

    @Test func takesThePictureOnScreenAtEachWholeSecond() throws {
        let collector = StoryboardCollector(expectedDuration: 3, frameRate: Rational(30000, 1001))
        let frame = try picture()
        for slot in Int64(0)..<90 { try collector.consider(frame, slot: slot) }
        // 1 s is slot 29.97, 2 s slot 59.94, 3 s slot 89.91: the pictures on screen then are slots 29, 59 and 89.
        // 90 slots last 3.003 s, so the fourth thumbnail (3 s) is there too.
        #expect(collector.slots == [0, 29, 59, 89] && collector.intervalSeconds == 1)
        #expect(try StoryboardPlan(durationSeconds: 90 * 1001 / 30000, width: 64, height: 36).count == 4)
    }

    @Test func aClipLongerThanItsHeaderSaidHalvesItsThumbnailsAtTheCap() throws {
        let directory = try TemporaryDirectory()
        // The header claimed 10 s; the clip runs 250 s at 1 fps.
        let collector = StoryboardCollector(expectedDuration: 10, frameRate: Rational(1, 1))
        let frame = try picture()
        for slot in Int64(0)..<250 { try collector.consider(frame, slot: slot) }
        #expect(collector.intervalSeconds == 4)
        #expect(collector.slots == Array(stride(from: Int64(0), to: 250, by: 4)))
        let storyboard = try collector.write(into: directory.path, durationSeconds: 250)
        #expect(storyboard.count == 63 && storyboard.intervalSeconds == 4 && storyboard.columns == 10)
        #expect(storyboard.tileWidth == 64 && storyboard.tileHeight == 36)
        let sheet = try WebPImage(
            decoding: Array(try Data(contentsOf: URL(fileURLWithPath: directory.file("storyboard.webp")))))
        #expect(sheet.width == 640 && sheet.height == 7 * 36)
        let cues = try StoryboardCollectorTests.parse(
            try String(contentsOfFile: directory.file("storyboard.vtt"), encoding: .utf8))
        #expect(cues.count == 63 && cues.last?.start == 248 && cues.last?.end == 250)
    }

    @Test func writingWithoutAPictureFails() throws {
        let directory = try TemporaryDirectory()
        let collector = StoryboardCollector(expectedDuration: 15, frameRate: Rational(30, 1))
        let error = try #require(throws: TranscodeError.self) {
            try collector.write(into: directory.path, durationSeconds: 15)
        }
        #expect(error.code == "encode_failed")
    }

    @Test func aDurationThatDisagreesWithThePicturesIsRefused() throws {
        let directory = try TemporaryDirectory()
        let collector = StoryboardCollector(expectedDuration: 2, frameRate: Rational(30, 1))
        let frame = try picture()
        for slot in Int64(0)..<60 { try collector.consider(frame, slot: slot) }
        #expect(throws: TranscodeError.self) { try collector.write(into: directory.path, durationSeconds: 5) }
        #expect(!FileManager.default.fileExists(atPath: directory.file("storyboard.vtt")))
    }
}
