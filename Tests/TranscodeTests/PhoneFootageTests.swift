import Deadlines
import Foundation
import Ingest
import LibAV
import MediaFixtures
import MediaModel
import TestTraits
import Testing

@testable import Transcode

/// Issue 61: phone HDR (HLG, PQ with and without mastering metadata, Dolby Vision 8.4's HLG base layer) becomes
/// BT.709 SDR renditions, posters and storyboards close to the SDR footage the clips were made from, judged by
/// ffprobe and scikit-image's CIEDE2000 (`PhoneTestBed`), never by hashes or timings.
@Suite(
    .offThePool, .timeLimit(.minutes(20)), .enabled(if: PhoneTestBed.isAvailable, "needs ffmpeg, opencv-doc, anchors"))
struct PhoneFootageTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test func probeSaysWhichHDRAClipIs() async throws {
        let bed = try await PhoneTestBed.folder()
        let policy = AdmissionPolicy()
        let expected: [(String, DynamicRange, String?)] = [
            ("hlg", .hlg, nil), ("pq-mastering", .pq, nil), ("pq-bare", .pq, nil), ("dv84", .hlg, "8.4"),
            ("sdr10", .sdr, nil),
        ]
        for (clip, range, dolbyVision) in expected {
            let colour = try #require(try policy.probe(path: "\(bed)/\(clip).mp4").video?.colour, "\(clip)")
            #expect(colour.dynamicRange == range, "\(clip): \(colour)")
            #expect(colour.dolbyVision == dolbyVision, "\(clip): \(colour)")
        }
        let mastered = try #require(try policy.probe(path: "\(bed)/pq-mastering.mp4").video?.colour)
        #expect(mastered.masteringPeakNits == 1000 && mastered.maxContentLightLevel == 1000, "\(mastered)")
        let bare = try #require(try policy.probe(path: "\(bed)/pq-bare.mp4").video?.colour)
        #expect(bare.masteringPeakNits == nil && bare.maxContentLightLevel == nil, "\(bare)")
        #expect(bare.transfer == "smpte2084" && bare.primaries == "bt2020" && bare.matrix == "bt2020nc")
    }

    /// Every rendition is 8-bit and tagged BT.709 throughout; the top rung is within a mean CIEDE2000 of 3.0 of the
    /// SDR source (Reel's ladder on the SDR source itself scores about 2); the poster is as saturated as the source.
    @Test(arguments: ["hlg", "pq-mastering", "pq-bare", "dv84", "sdr10"])
    func hdrBecomesBT709SDRCloseToTheSource(clip: String) async throws {
        let bed = try await PhoneTestBed.folder()
        let folder = directory.file(clip)
        let summary = try await onOwnThread("transcodes \(clip)") {
            try LadderTranscoder().run(source: "\(bed)/\(clip).mp4", output: folder)
        }
        for rendition in summary.renditions {
            let tags = try await PhoneTestBed.videoTags(folder + "/" + rendition.id + "/init.mp4")
            #expect(
                tags["color_primaries"] == "bt709" && tags["color_transfer"] == "bt709"
                    && tags["color_space"] == "bt709", "\(clip) \(rendition.id): \(tags)")
        }
        let top = try #require(summary.renditions.max { $0.height < $1.height })
        let difference = try await PhoneTestBed.colourDifference(
            reference: PhoneTestBed.source, test: "\(folder)/\(top.id)")
        let deltaE = try #require(difference["ciede2000"])
        #expect(deltaE <= 3.0, "\(clip): mean CIEDE2000 \(deltaE) from the SDR source")
        let saturation = try #require(difference["saturation_test"]),
            wanted = try #require(
                difference["saturation_reference"])
        #expect(saturation > wanted * 0.7, "\(clip): saturation \(saturation) against the source's \(wanted)")
        let poster = try await posterSaturation(folder + "/poster.jpg")
        #expect(poster > wanted * 0.7, "\(clip): the poster's saturation \(poster) against the source's \(wanted)")
    }

    /// Issue 64: an HDR upload's provisional rung, whose pictures are scaled (by area) before they are converted,
    /// is BT.709 SDR as close to the SDR source as the ladder's own lowest rung, converted first and scaled by
    /// Lanczos.
    @Test(arguments: ["hlg", "pq-mastering", "dv84"])
    func theProvisionalRungOfHDRIsSDRAsCloseAsTheLaddersLowest(clip: String) async throws {
        let bed = try await PhoneTestBed.folder()
        let provisional = directory.file(clip + "-playable"), ladder = directory.file(clip + "-ladder")
        let (report, summary) = try await onOwnThread("makes \(clip)'s provisional rung and ladder") {
            let admitted = try AdmissionPolicy().admitVideo(path: "\(bed)/\(clip).mp4")
            let report = try PlayableTranscoder(preset: .default).run(admitted, into: provisional) { _ in }
            return (report, try LadderTranscoder().run(source: "\(bed)/\(clip).mp4", output: ladder))
        }
        #expect(report.mode == .firstRung && report.complete, "\(clip): \(report)")
        let first = try #require(report.renditions.first)
        let lowest = try #require(summary.renditions.min { $0.height < $1.height })
        #expect(first.id == lowest.id && first.width == lowest.width && first.height == lowest.height)
        let tags = try await PhoneTestBed.videoTags(provisional + "/" + first.id + "/init.mp4")
        #expect(
            tags["color_primaries"] == "bt709" && tags["color_transfer"] == "bt709" && tags["color_space"] == "bt709",
            "\(clip): \(tags)")
        let early = try await PhoneTestBed.colourDifference(
            reference: PhoneTestBed.source, test: provisional + "/" + first.id)
        let final = try await PhoneTestBed.colourDifference(
            reference: PhoneTestBed.source, test: ladder + "/" + lowest.id)
        let (earlyDeltaE, finalDeltaE) = (try #require(early["ciede2000"]), try #require(final["ciede2000"]))
        #expect(earlyDeltaE <= finalDeltaE + 0.5, "\(clip): CIEDE2000 \(earlyDeltaE), the ladder's \(finalDeltaE)")
        let (earlySaturation, finalSaturation) = (
            try #require(early["saturation_test"]), try #require(final["saturation_test"])
        )
        #expect(earlySaturation > finalSaturation * 0.9, "\(clip): saturation \(earlySaturation), \(finalSaturation)")
        print("\(clip): provisional CIEDE2000 \(earlyDeltaE), the ladder's lowest rung \(finalDeltaE)")
        guard clip == "hlg" else { return }
        // Held sideways: the picture is scaled at its coded size, then turned upright.
        let sideways = directory.file("hlg-rotated.mp4"), rotated = directory.file("hlg-rotated-playable")
        let turned = try await onOwnThread("makes the rotated clip's provisional rung") {
            let policy = InputPolicy(
                format: "mov", formatWhitelist: ["mov"], codecWhitelist: ["hevc", "aac"], maxStreams: 4,
                maxPixels: 1 << 24)
            try Remuxer.remux(try InputContext(path: "\(bed)/hlg.mp4", policy: policy), to: sideways, rotation: 90) {
                false
            }
            return try PlayableTranscoder(preset: .default).run(
                try AdmissionPolicy().admitVideo(path: sideways), into: rotated
            ) { _ in }
        }
        let upright = try #require(turned.renditions.first)
        #expect(turned.mode == .firstRung && upright.width == first.height && upright.height == first.width)
        let reading = try HLSRendition.read(
            try HLSRendition(directory: rotated + "/" + upright.id).joined(
                try HLSRendition(directory: rotated + "/" + upright.id).segments, to: directory.file("turned.mp4")))
        #expect(reading.video.rotation == 0 && reading.decodedSize == (upright.width, upright.height))
    }

    /// With highlights (3x above SDR white before the conversion), the roll-off keeps them apart instead of
    /// clipping them: fewer newly clipped pixels than the ffmpeg CLI's zscale with `tonemap=clip` (a plain
    /// conversion), and at most as many as its `tonemap=hable` chain plus 0.5 % of the picture.
    @Test(arguments: ["hlg-highlights", "pq-highlights"])
    func highlightsRollOffInsteadOfClipping(clip: String) async throws {
        let bed = try await PhoneTestBed.folder()
        let folder = directory.file(clip)
        let summary = try await onOwnThread("transcodes \(clip)") {
            try LadderTranscoder().run(source: "\(bed)/\(clip).mp4", output: folder)
        }
        let top = try #require(summary.renditions.max { $0.height < $1.height })
        let reel = try #require(
            try await PhoneTestBed.colourDifference(reference: PhoneTestBed.brightSource, test: "\(folder)/\(top.id)")[
                "clipped_fraction"])
        var anchor: [String: Double] = [:]
        for tonemap in ["clip", "hable"] {
            let output = directory.file("\(clip)-\(tonemap).mp4")
            let chain =
                "zscale=t=linear:npl=203,format=gbrpf32le,zscale=p=bt709,tonemap=\(tonemap):desat=0,"
                + "zscale=t=bt709:m=bt709:r=tv,format=yuv420p"
            let result = try await ChildProcess.run(
                [
                    "/usr/bin/ffmpeg", "-nostdin", "-v", "error", "-y", "-i", "\(bed)/\(clip).mp4", "-vf", chain,
                    "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", output,
                ], within: .seconds(300))
            try #require(result.status == 0, "ffmpeg: \(result.stderr)")
            let fraction: Double = try #require(
                try await PhoneTestBed.colourDifference(reference: PhoneTestBed.brightSource, test: output)[
                    "clipped_fraction"])
            anchor[tonemap] = fraction
        }
        let clipped = try #require(anchor["clip"]), hable = try #require(anchor["hable"])
        #expect(clipped > 0.01, "\(clip): the highlights are real (a plain conversion clips \(clipped))")
        #expect(reel < clipped / 4, "\(clip): Reel clips \(reel), a plain conversion \(clipped)")
        #expect(reel <= hable + 0.005, "\(clip): Reel clips \(reel), zscale+hable \(hable)")
    }

    /// With HEVC in the ladder, an HDR upload also gets a 10-bit HEVC rendition of its top rung that keeps HLG or
    /// PQ (and PQ's mastering display and light levels), listed as VIDEO-RANGE=HLG or PQ beside SDR renditions that
    /// say SDR, on the same keyframe grid; GStreamer plays it.
    @Test(arguments: ["hlg", "pq-mastering"])
    func withHEVCAnHDRRungKeepsTheSourcesRange(clip: String) async throws {
        let bed = try await PhoneTestBed.folder()
        let folder = directory.file(clip)
        var preset = LadderPreset.default
        preset.codecs = [.h264, .hevc]
        preset.hevc.preset = "veryfast"
        let ladder = preset
        let summary = try await onOwnThread("transcodes \(clip) with HEVC") {
            try LadderTranscoder(preset: ladder).run(source: "\(bed)/\(clip).mp4", output: folder)
        }
        let range: TranscodeSummary.VideoRange = clip == "hlg" ? .hlg : .pq
        let hdr = try #require(summary.renditions.first { $0.videoRange != .sdr }, "\(summary.renditions.map(\.id))")
        let top = try #require(summary.renditions.filter { $0.videoRange == .sdr }.max { $0.height < $1.height })
        #expect(hdr.videoRange == range && hdr.id == top.id + "-hevc-" + range.rawValue.lowercased())
        #expect(hdr.width == top.width && hdr.height == top.height && hdr.frames == top.frames)
        #expect(summary.renditions.filter { $0.videoRange != .sdr }.count == 1)
        let tags = try await PhoneTestBed.videoTags(folder + "/" + hdr.id + "/init.mp4")
        #expect(tags["pix_fmt"] == "yuv420p10le" && tags["color_primaries"] == "bt2020", "\(tags)")
        #expect(tags["color_transfer"] == (range == .hlg ? "arib-std-b67" : "smpte2084"), "\(tags)")
        let master = try String(contentsOfFile: folder + "/master.m3u8", encoding: .utf8)
        for rendition in summary.renditions {
            let line = try #require(
                master.split(separator: "\n").firstIndex { $0 == rendition.playlist }.map {
                    master.split(separator: "\n")[$0 - 1]
                })
            #expect(line.contains("VIDEO-RANGE=\(rendition.videoRange.rawValue)"), "\(rendition.id): \(line)")
        }
        if range == .pq {
            let joined = directory.file("pq-joined.mp4")
            let segment = try FileManager.default.contentsOfDirectory(atPath: folder + "/" + hdr.id).filter {
                $0.hasSuffix(".m4s")
            }.sorted()[0]
            let bytes =
                try Data(contentsOf: URL(fileURLWithPath: folder + "/" + hdr.id + "/init.mp4"))
                + Data(contentsOf: URL(fileURLWithPath: folder + "/" + hdr.id + "/" + segment))
            try bytes.write(to: URL(fileURLWithPath: joined))
            let frames = try await ChildProcess.run(
                [
                    "/usr/bin/ffprobe", "-v", "error", "-show_frames", "-read_intervals", "%+#1", "-select_streams",
                    "v", joined,
                ], within: .seconds(60))
            #expect(frames.stdout.contains("max_luminance=10000000/10000"), "the mastering display: \(frames.stdout)")
            #expect(frames.stdout.contains("max_content=1000"), "the light level: \(frames.stdout)")
        }
        if let script = GStreamer.playScript {
            let result = try await GStreamer.run(script, folder, playlist: hdr.playlist)
            let played = result.output.firstMatch(of: /video_frames=(\d+)/).flatMap { Int($0.1) }
            #expect(result.status == 0 && played == hdr.frames, "GStreamer, \(hdr.id): \(result.output)")
        }
    }

    /// GStreamer and Chromium (hls.js) play every rendition of a converted Dolby Vision 8.4 clip to its end, at its
    /// own size, without errors.
    @Test(.enabled(if: GStreamer.playScript != nil, "needs gst-launch-1.0 and ../shared/anchors/play_hls_gst.sh"))
    func playersPlayTheConvertedLadder() async throws {
        let bed = try await PhoneTestBed.folder()
        let folder = directory.file("dv84")
        let summary = try await onOwnThread("transcodes dv84") {
            try LadderTranscoder().run(source: "\(bed)/dv84.mp4", output: folder)
        }
        let script = try #require(GStreamer.playScript)
        for rendition in summary.renditions {
            let result = try await GStreamer.run(script, folder, playlist: rendition.playlist)
            let frames = result.output.firstMatch(of: /video_frames=(\d+)/).flatMap { Int($0.1) }
            #expect(result.status == 0 && frames == rendition.frames, "GStreamer, \(rendition.id): \(result.output)")
        }
        let hlsJS = MultiCodecPlaybackTests.packageRoot.appendingPathComponent(".build/vendor/hls.mjs").path
        try #require(FileManager.default.fileExists(atPath: hlsJS), "hls.js is missing: run scripts/fetch-hlsjs.py")
        let driver = MultiCodecPlaybackTests.packageRoot.appendingPathComponent("Tests/Browser/hls_variants_browser.py")
        let run = try await ChildProcess.run(
            [
                "/usr/bin/timeout", "300", "python3", driver.path, "--ladder", folder, "--hls-js", hlsJS, "--out",
                directory.file("chromium"),
            ], within: .seconds(330))
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
            "no report: \(run.stdout) \(run.stderr)")
        try #require(run.status == 0 && report["harnessError"] == nil, "\(report["harnessError"] ?? run.stderr)")
        let played = (report["played"] as? [[String: Any]] ?? []).filter { $0["uri"] is String }
        let levels = report["levels"] as? [[String: Any]] ?? []
        for rendition in summary.renditions {
            let playback = try #require(played.first { $0["uri"] as? String == rendition.playlist }, "\(rendition.id)")
            let level = levels.first { $0["uri"] as? String == rendition.playlist }
            MultiCodecPlaybackTests.expectPlayedToTheEnd(rendition, pinnedAs: level?["index"] as? Int, playback)
        }
    }

    /// The test bed's loudness clips (espeak-ng speech among them, whose transients AAC overshoots by nearly 4 dB at
    /// 64 kb/s after the limiter) read at most -1 dBTP in every rendition, by ffmpeg's ebur128; each is within 1 LU
    /// of -14 LUFS, or, only where the source is more than the +20 dB cap below it, short of it with the outcome
    /// saying the gain stopped at its cap; silence stays silent.
    @Test(arguments: ["speech", "loud", "music", "quiet", "silent"])
    func everyPostPlaysAtOneLoudnessUnderTheCeiling(clip: String) async throws {
        let bed = try await PhoneTestBed.folder()
        let path = "\(bed)/\(clip).mp4"
        try #require(FileManager.default.fileExists(atPath: path), "the bed has no \(clip) clip (espeak-ng missing?)")
        let folder = directory.file(clip)
        let summary = try await onOwnThread("transcodes \(clip)") {
            try LadderTranscoder().run(source: path, output: folder)
        }
        let loudness = try #require(summary.loudness, "\(clip): no loudness in the summary")
        for rendition in summary.renditions {
            let reading = try await LoudnessAnchor.measure(folder + "/" + rendition.id)
            if loudness.isSilent {
                #expect(reading.lufs <= -70, "\(clip) \(rendition.id): \(reading)")
                continue
            }
            #expect(reading.truePeakDBTP <= -1.0, "\(clip) \(rendition.id): \(reading)")
            #expect(
                abs(reading.lufs + 14) <= 1
                    || (loudness.isCapped && -14 - (loudness.sourceLUFS ?? 0) > 20 && reading.lufs < -14),
                "\(clip) \(rendition.id): \(reading), \(loudness)")
        }
    }

    /// `reel compress` converts too (its output is what `reel upload` sends), and never passes HDR through.
    @Test func compressMakesSDR() async throws {
        let bed = try await PhoneTestBed.folder()
        let output = directory.file("compressed.mp4")
        let summary = try await onOwnThread("compresses the HLG clip") {
            try VideoCompressor().run(source: "\(bed)/hlg.mp4", output: output, quality: .high)
        }
        #expect(summary.mode == .transcode)
        let tags = try await PhoneTestBed.videoTags(output)
        #expect(tags["pix_fmt"] == "yuv420p" && tags["color_transfer"] == "bt709", "\(tags)")
        let deltaE = try #require(
            try await PhoneTestBed.colourDifference(reference: PhoneTestBed.source, test: output)["ciede2000"])
        #expect(deltaE <= 3.0, "compress: mean CIEDE2000 \(deltaE)")
    }

    /// Dolby Vision without a compatible base layer (profile 5) is refused with the reason, not shown in wrong colours.
    @Test func dolbyVisionProfile5IsRefusedWithTheReason() async throws {
        let bed = try await PhoneTestBed.folder()
        let clip = directory.file("dv5.mp4")
        let result = try await ChildProcess.run(["\(bed)/.dv-remux", "\(bed)/pq-bare.mp4", clip, "5", "0"])
        try #require(result.status == 0, "\(result.stderr)")
        let error = #expect(throws: Rejection.self) { try AdmissionPolicy().admitVideo(path: clip) }
        #expect(error?.reason == .unsupportedFormat)
        #expect(error?.message.contains("Dolby Vision profile 5") == true, "\(error?.message ?? "")")
    }

    /// Mean saturation ((max - min) / max) of a JPEG, by Pillow and numpy, as colour_difference.py measures frames.
    func posterSaturation(_ path: String) async throws -> Double {
        let script =
            "import sys, numpy as np; from PIL import Image; x = np.asarray(Image.open(sys.argv[1]).convert('RGB'))"
            + " / 255.0; print(float(((x.max(2) - x.min(2)) / (x.max(2) + 1e-6)).mean()))"
        let result = try await ChildProcess.run(["/usr/bin/env", "python3", "-c", script, path], within: .seconds(60))
        return try #require(Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result.stderr)")
    }
}
