import LibAV
import MediaFixtures
import TestTraits
import Testing

@testable import Transcode

/// A rung's scaled-picture cache (shared by its renditions in every codec): one scale per source picture, never a
/// stale one.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct RungOutputTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    func makeRung() throws -> RungScaler {
        RungScaler(width: 160, height: 90)
    }

    func makeOutput() throws -> RungOutput {
        let rung = LadderPlan.Rung(
            id: "90p", width: 160, height: 90, crf: 28, maxBitrateKbps: 300, bufferKbits: 600, audioBitrateKbps: 64)
        let plan = LadderPlan(rungs: [rung], frameRate: (30, 1), keyframeInterval: 30, rotation: 0)
        return try RungOutput(
            rung: rung, plan: plan, preset: .default, destination: .mp4(path: directory.file("rung.mp4")),
            color: .bt709, audio: nil, threads: 1)
    }

    func source(brightness: Double) throws -> Frame {
        let frame = try Frame(width: 320, height: 180, pixelFormat: .yuv420p)
        try frame.fillTestPattern(index: 0, brightness: brightness)
        return frame
    }

    /// The old cache was keyed on the source frame's `ObjectIdentifier`, which a new frame can share with a freed one;
    /// reusing one `Frame` object for two pictures is that case made certain.
    @Test func newPictureInTheSameFrameObjectIsScaledAfresh() throws {
        let rung = try makeRung()
        let frame = try source(brightness: 0.2)
        let dark = try rung.picture(from: SourcePicture(frame: frame, number: 0)).lumaStatistics().mean
        try frame.fillTestPattern(index: 0, brightness: 1)
        let bright = try rung.picture(from: SourcePicture(frame: frame, number: 1)).lumaStatistics().mean
        #expect(dark < 40, "the dark picture's mean luma is \(dark)")
        #expect(bright > dark + 50, "the second picture came back with mean luma \(bright), the first had \(dark)")
    }

    @Test func twoFramesFedInTurnGiveTheirOwnPictures() throws {
        let rung = try makeRung()
        var means: [Double] = []
        for (number, brightness) in [0.2, 1, 0.2, 1].enumerated() {
            let picture = SourcePicture(frame: try source(brightness: brightness), number: Int64(number))
            let scaled = try rung.picture(from: picture)
            #expect(scaled.width == 160 && scaled.height == 90)
            means.append(scaled.lumaStatistics().mean)
        }
        #expect(means[1] > means[0] + 50 && means[3] > means[2] + 50, "mean luma per picture: \(means)")
    }

    @Test func pictureRepeatedForAnotherSlotIsScaledOnce() throws {
        let rung = try makeRung()
        let output = try makeOutput()
        let picture = SourcePicture(frame: try source(brightness: 1), number: 0)
        let first = try rung.picture(from: picture)
        try output.encodeVideo(try rung.picture(from: picture), slot: 0, keyframeInterval: 30)
        try output.encodeVideo(try rung.picture(from: picture), slot: 1, keyframeInterval: 30)
        #expect(try rung.picture(from: picture) === first)
        #expect(output.framesEncoded == 2)
        #expect(first.pts != 1, "each encode sets the time on a reference of its own, not on the shared picture")
    }

    /// A yuv420p picture already at the rung's size is not copied: the rung's picture shares its pixels.
    @Test func pictureAtTheRungsSizeIsPassedThrough() throws {
        let rung = RungScaler(width: 320, height: 180)
        let frame = try source(brightness: 0.6)
        let picture = try rung.picture(from: SourcePicture(frame: frame, number: 0))
        #expect(picture.width == 320 && picture.height == 180 && picture.pixelFormat == .yuv420p)
        #expect(picture.withPlane(0) { pixels, _ in pixels } == frame.withPlane(0) { pixels, _ in pixels })
        #expect(abs(picture.lumaStatistics().mean - frame.lumaStatistics().mean) < 0.001)
    }

    /// Another format at the rung's size is still converted to yuv420p.
    @Test func otherFormatAtTheRungsSizeIsConverted() throws {
        let rung = RungScaler(width: 320, height: 180)
        let yuv = try source(brightness: 0.6)
        let rgba = try Scaler(
            inputWidth: 320, inputHeight: 180, inputFormat: .yuv420p, outputWidth: 320, outputHeight: 180,
            outputFormat: .rgba, filter: .bilinear
        ).scale(yuv)
        let picture = try rung.picture(from: SourcePicture(frame: rgba, number: 0))
        #expect(picture.pixelFormat == .yuv420p && picture.width == 320 && picture.height == 180)
        #expect(abs(picture.lumaStatistics().mean - yuv.lumaStatistics().mean) < 3, "the round trip keeps the picture")
    }
}
