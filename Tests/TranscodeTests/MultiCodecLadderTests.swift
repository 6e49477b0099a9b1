import Foundation
import Ingest
import LibAV
import MediaFixtures
import MediaModel
import TestTraits
import Testing

@testable import Transcode

/// Ladders with HEVC and AV1 rungs beside H.264, from one decode, judged on what a player reads back: every rendition
/// decodes to its size and frame count, IDRs fall on the same times in all of them, HEVC is `hvc1`, the master lists
/// every variant with the CODECS its init segment declares, and each rung's audio is one encode shared by its codecs.
@Suite(.offThePool, .timeLimit(.minutes(15))) struct MultiCodecLadderTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    static var threeCodecs: LadderPreset {
        var preset = LadderTranscoderTests.small
        preset.codecs = [.h264, .hevc, .av1]
        // the fastest SVT-AV1 preset keeps the test quick
        preset.av1 = .init(preset: 12, crfOffset: 14, probeCRFStep: 12)
        preset.rungs[1].hevcCRF = 30
        return preset
    }

    @Test func everyCodecMakesEveryRungFromOneDecode() throws {
        let source = directory.file("clip.mp4")
        try SyntheticVideo(width: 480, height: 270, seconds: 3).write(to: source)
        let output = directory.file("clip.hls")
        let summary = try LadderTranscoder(preset: Self.threeCodecs).run(source: source, output: output)

        let rungs = ["90p", "180p", "270p"]
        #expect(summary.renditions.map(\.id) == rungs + rungs.map { $0 + "-hevc" } + rungs.map { $0 + "-av1" })
        #expect(
            summary.renditions.map(\.videoCodec) == Array(repeating: VideoCodec.h264, count: 3)
                + Array(repeating: .hevc, count: 3)
                + Array(repeating: .av1, count: 3))
        #expect(summary.renditions.map(\.rung) == rungs + rungs + rungs)
        #expect(
            summary.renditions.map(\.crf) == [28, 28, 28, 32, 30, 32, 42, 42, 42],
            "per codec: the rung's CRF, an override, or the offset")

        let master = try String(contentsOfFile: output + "/master.m3u8", encoding: .utf8)
        var keyframes: [String: [Double]] = [:]
        var audio: [String: [Int]] = [:]
        for rendition in summary.renditions {
            let codec = try #require(rendition.videoCodec)
            // Each variant is listed with the CODECS its own init segment gives (hvcC, av1C, avcC; then AAC).
            #expect(
                master.contains("CODECS=\"\(rendition.codecs)\",RESOLUTION=\(rendition.width)x\(rendition.height)"),
                "\(master)")
            #expect(master.contains("\n\(rendition.playlist)\n"))
            let prefix = ["h264": "avc1.", "hevc": "hvc1.", "av1": "av01."][codec.rawValue]!
            #expect(
                rendition.codecs.hasPrefix(prefix) && rendition.codecs.hasSuffix(",mp4a.40.2"), "\(rendition.codecs)")

            let hls = try HLSRendition(directory: output + "/" + rendition.id)
            #expect(hls.segments.count == rendition.segments && !hls.segments.isEmpty)
            let initSegment = try Data(contentsOf: URL(fileURLWithPath: output + "/" + rendition.id + "/init.mp4"))
            if codec == .hevc {
                #expect(
                    initSegment.range(of: Data("hvc1".utf8)) != nil && initSegment.range(of: Data("hev1".utf8)) == nil,
                    "Apple requires the hvc1 sample entry")
            }
            for (index, segment) in hls.segments.enumerated() {
                let one = try HLSRendition.read(
                    try hls.joined([segment], to: directory.file("\(rendition.id)-\(index).mp4")), decode: false)
                #expect(
                    one.packets.first?.isKeyframe == true,
                    "\(rendition.id) segment \(index) does not start with a keyframe")
            }
            let whole = try HLSRendition.read(
                try hls.joined(hls.segments, to: directory.file("\(rendition.id)-all.mp4")))
            #expect(whole.video.codecName == codec.rawValue)
            #expect(whole.decodedFormat == .yuv420p)
            #expect(whole.decodedSize == (rendition.width, rendition.height))
            #expect(
                whole.decodedFrames == rendition.frames && rendition.frames == 90,
                "\(rendition.id): \(whole.decodedFrames) frames")
            #expect(whole.audio?.codecName == "aac")
            keyframes[rendition.id] = whole.packets.filter(\.isKeyframe).map(\.time).sorted()
            audio[rendition.id] = whole.audioPacketSizes
        }
        // IDRs every second, on the same times in every rendition (players switch codec or rung at any segment).
        // (The muxer starts every file a few frames late so no decode time is negative: the same lead in each.)
        let first = try #require(keyframes["90p"])
        #expect(
            first.count == 3 && first[0] < 0.1 && zip(first, first.dropFirst()).allSatisfy { abs($1 - $0 - 1) < 0.001 },
            "\(first)")
        for (id, times) in keyframes { #expect(times == keyframes["90p"], "\(id): \(times)") }
        // One AAC encode per rung: its codecs carry the same packets; rungs of other bitrates differ.
        for rung in rungs {
            #expect(!(audio[rung] ?? []).isEmpty)
            #expect(audio[rung + "-hevc"] == audio[rung] && audio[rung + "-av1"] == audio[rung], "\(rung)")
        }
        #expect(audio["90p"] != audio["270p"])
        #expect(FileManager.default.fileExists(atPath: output + "/poster.jpg"))
    }

    @Test func theDefaultLadderStaysH264Only() throws {
        let preset = try PresetLoader.decode(
            LadderPreset.self, from: try PresetFixtures.bytes(of: "ladder.json"), file: "ladder.json")
        #expect(preset.codecs == [.h264] && LadderPreset.default.codecs == [.h264])
        let plan = LadderPlanner(preset: .default).plan(
            .init(width: 1080, height: 1920, rotation: 0, averageFrameRate: 30, realFrameRate: 30))
        #expect(plan.codecs == [.h264] && plan.rungs.allSatisfy(\.otherCRFs.isEmpty))
    }

    @Test(arguments: [
        (#"{"codecs": ["hevc"]}"#, "codecs", "must include \"h264\""),
        (#"{"codecs": ["h264", "av1", "av1"]}"#, "codecs", "lists a codec twice"),
        (#"{"codecs": ["h264", "vp9"]}"#, "codecs", "vp9"),
        (#"{"hevc": {"preset": "speedy", "crf_offset": 3}}"#, "hevc.preset", "speedy"),
        (#"{"av1": {"preset": 14, "crf_offset": 10}}"#, "av1.preset", "14"),
        (#"{"codecs": ["h264", "av1"], "av1": {"preset": 8, "crf_offset": 60}}"#, "av1.crf_offset", "63"),
    ])
    func aBadCodecSettingNamesItsKey(json: String, key: String, words: String) throws {
        let error = #expect(throws: PresetError.self) {
            try PresetLoader.decode(LadderPreset.self, from: Array(json.utf8), file: "ladder.json")
        }
        let text = "\(error.map { String(describing: $0) } ?? "")"
        #expect(text.contains(key) && text.contains(words), "\(text)")
    }

    /// `--ssim`: each rendition is read back as it is encoded; the score is the viewer's quality at that size, so a
    /// lower CRF scores higher, and without the option nothing is measured.
    @Test func measuredRenditionsReportSSIMYThatFollowsTheirCRF() throws {
        let source = directory.file("measured.mp4")
        try SyntheticVideo(width: 480, height: 270, seconds: 2).write(to: source)
        var preset = Self.threeCodecs
        preset.rungs = [preset.rungs[1]]
        preset.poster.rung = preset.rungs[0].id
        func ssim(crf: Int, name: String) throws -> [String: Double] {
            var rungPreset = preset
            rungPreset.rungs[0].crf = crf
            rungPreset.rungs[0].hevcCRF = crf + 2
            rungPreset.rungs[0].av1CRF = crf + 12
            let summary = try LadderTranscoder(preset: rungPreset, measuresQuality: true).run(
                source: source, output: directory.file(name))
            return Dictionary(uniqueKeysWithValues: try summary.renditions.map { ($0.id, try #require($0.ssimY)) })
        }
        let fine = try ssim(crf: 18, name: "fine"), coarse = try ssim(crf: 40, name: "coarse")
        #expect(fine.keys.sorted() == ["180p", "180p-av1", "180p-hevc"])
        for (id, score) in fine {
            let low = try #require(coarse[id])
            #expect(
                score > 0.9 && score <= 1 && low > 0.5 && low < score, "\(id): CRF 18-ish \(score), CRF 40-ish \(low)")
        }
        let unmeasured = try LadderTranscoder(preset: preset).run(source: source, output: directory.file("unmeasured"))
        #expect(unmeasured.renditions.allSatisfy { $0.ssimY == nil })
    }
}
