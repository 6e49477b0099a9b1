import FileSystem
import Foundation
import MediaFixtures
import MediaModel
import TestTraits
import Testing

@testable import Transcode

/// The content-aware ladder checks itself once encoded, on real encodes: a clip whose probe windows are far easier
/// than the rest gets CRFs its windows allow but the clip does not; the check sees the miss on its sample of the
/// clip, encodes those renditions again, and the published ladder is inside the bound against the plain ladder's
/// own encode of the same clip.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct RateCheckLadderTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// Still in even seconds, where the two 1 s windows of a 4 s clip fall (0 and 2), noise in odd ones; no cap,
    /// so that the CRF alone decides the noise's quality.
    func source() throws -> String {
        var clip = SyntheticVideo(width: 480, height: 270, seconds: 4)
        clip.content = .stillEvenSecondsNoiseOdd
        clip.quality = 18
        let path = directory.file("windows-easier.mp4")
        if !FileManager.default.fileExists(atPath: path) { try clip.write(to: path) }
        return path
    }

    static var preset: LadderPreset { ContentAwareLadderTests.uncapped(ContentAwareLadderTests.contentAware) }

    @Test func aClipHarderThanItsWindowsIsEncodedAgainAndPublishedInsideItsBound() throws {
        let source = try source()
        let output = directory.file("aware")
        let aware = try LadderTranscoder(preset: Self.preset).run(source: source, output: output)
        var fixed = Self.preset
        fixed.contentAware.enabled = false
        let plain = try LadderTranscoder(preset: fixed, measuresQuality: true).run(
            source: source, output: directory.file("plain"))

        let analysis = try #require(aware.rateAnalysis)
        #expect(analysis.windowStarts == [0, 2], "the windows are the still seconds: \(analysis.windowStarts)")
        let check = try #require(aware.rateCheck, "CRFs rose, so the ladder was checked")
        #expect(check.sample == [[3, 4]], "the sample is the GOP no window covers, and it is noise: \(check.sample)")
        #expect(check.sampleCPUSeconds > 0 && check.cpuSeconds > 0)
        // The windows let every rung rise; on the noise that lost far more than the bound, so the check encoded it
        // again, once or twice (the second time at the rung's own CRF).
        #expect(check.passes >= 1 && check.passes <= RateChecker.maxPasses, "\(check.passes)")
        let again = check.renditions.filter { $0.attempts.count > 1 }
        #expect(!again.isEmpty, "\(check.renditions.map { ($0.id, $0.attempts) })")
        for rendition in again {
            #expect(!rendition.attempts[0].inside && rendition.attempts[0].crf > 28, "\(rendition.attempts)")
            #expect(zip(rendition.attempts, rendition.attempts.dropFirst()).allSatisfy { $0.crf > $1.crf })
        }
        #expect(check.inside, "\(check.renditions.map { ($0.id, $0.attempts) })")

        // The truth: every published rendition against the plain ladder's encode at the rung's own CRF, whole clip.
        let reference = Dictionary(uniqueKeysWithValues: plain.renditions.map { ($0.id, $0.ssimY) })
        for rendition in aware.renditions {
            let checked = try #require(check.renditions.first { $0.id == rendition.id })
            let published = try #require(checked.attempts.last)
            #expect(rendition.crf == published.crf, "the summary names the CRF published: \(rendition.id)")
            let ssimY = try #require(rendition.ssimY, "a checked rendition reports what it measured")
            #expect(abs(ssimY - published.ssimY) < 1e-12)
            let plainSSIMY = try #require(reference[rendition.id] ?? nil)
            #expect(
                ssimY >= plainSSIMY - Self.preset.contentAware.maxSSIMDrop,
                "\(rendition.id) at CRF \(published.crf): \(ssimY) against CRF 28's \(plainSSIMY)")
        }
        // What was encoded again took the place of the first encode: a whole, aligned ladder, nothing left over.
        try LadderTranscoderTests().checkLadder(aware, at: output, keyframeSeconds: 1)
        #expect(!FileManager.default.fileExists(atPath: output + "/.again"))
        for rendition in aware.renditions {
            let files = try FileManager.default.contentsOfDirectory(atPath: output + "/" + rendition.id)
            let bytes = try files.filter { $0.hasSuffix(".m4s") }.map {
                try FileManager.default.attributesOfItem(atPath: output + "/" + rendition.id + "/" + $0)[.size] as! Int
            }.reduce(0, +)
            #expect(bytes == rendition.bytes, "\(rendition.id): the summary counts the published segments")
        }
    }

    /// HEVC and AV1 are held against their rung's H.264 as published, whether or not it was encoded again, and come
    /// out within 0.002 of it; their IDRs stay on the H.264 rungs' times.
    @Test func otherCodecsEndWithinTheirBoundOfThePublishedH264() throws {
        var preset = Self.preset
        preset.codecs = [.h264, .hevc, .av1]
        preset.av1 = .init(preset: 12, crfOffset: 14, probeCRFStep: 12)
        let output = directory.file("codecs")
        let summary = try LadderTranscoder(preset: preset).run(source: try source(), output: output)
        let check = try #require(summary.rateCheck)
        #expect(check.inside, "\(check.renditions.map { ($0.id, $0.attempts) })")
        let measured = Dictionary(uniqueKeysWithValues: try summary.renditions.map { ($0.id, try #require($0.ssimY)) })
        for rendition in summary.renditions where rendition.videoCodec != .h264 {
            let rung = try #require(rendition.rung)
            #expect(
                measured[rendition.id]! >= measured[rung]! - RateBound.codecDrop,
                "\(rendition.id): \(measured[rendition.id]!) against \(measured[rung]!)")
            let checked = try #require(check.renditions.first { $0.id == rendition.id })
            #expect(checked.reference == .h264 && checked.attempts.last?.crf == rendition.crf)
        }
        let keyframes = try summary.renditions.map { rendition in
            let hls = try HLSRendition(directory: output + "/" + rendition.id)
            let whole = try HLSRendition.read(
                try hls.joined(hls.segments, to: directory.file("\(rendition.id)-all.mp4")), decode: false)
            return whole.packets.filter(\.isKeyframe).map(\.time).sorted()
        }
        for times in keyframes.dropFirst() { #expect(times == keyframes[0], "IDRs differ across renditions") }
    }

    /// A ladder whose first probes stopped the analysis is the plain one: nothing is measured or checked.
    @Test func aLadderThatKeptEveryCRFIsNotChecked() throws {
        var clip = SyntheticVideo(width: 480, height: 270, seconds: 3)
        clip.content = .noise
        clip.quality = 18
        var preset = Self.preset
        for index in preset.rungs.indices { preset.rungs[index].targetSSIMY = 0.9999 }
        let path = directory.file("noise.mp4")
        try clip.write(to: path)
        let summary = try LadderTranscoder(preset: preset).run(source: path, output: directory.file("noise"))
        #expect(summary.rateAnalysis?.firstProbes?.stopped != nil)
        #expect(summary.rateCheck == nil && summary.renditions.allSatisfy { $0.ssimY == nil })
    }
}
