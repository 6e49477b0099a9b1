import TestTraits
import Testing

@testable import LibAV

/// SSIM-Y: the window formula on known sums, and whole pictures against themselves, shifted and degraded copies.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct LumaSSIMTests {
    /// A window's sums for pixel lists `a` and `b`.
    static func window(_ a: [Double], _ b: [Double]) -> Double {
        LumaSSIM.window(
            sumA: a.reduce(0, +), sumB: b.reduce(0, +), sumAA: a.map { $0 * $0 }.reduce(0, +),
            sumBB: b.map { $0 * $0 }.reduce(0, +), sumAB: zip(a, b).map { $0 * $1 }.reduce(0, +), count: Double(a.count)
        )
    }

    @Test(arguments: [0.0, 17, 128, 255])
    func aWindowAgainstItselfIsOne(level: Double) {
        let pixels = (0..<64).map { Double((Int(level) + $0 * 7) % 256) }
        #expect(abs(Self.window(pixels, pixels) - 1) < 1e-12)
        let flat = [Double](repeating: level, count: 64)
        #expect(abs(Self.window(flat, flat) - 1) < 1e-12)
    }

    @Test func aFlatWindowAgainstAnotherLevelFollowsTheLuminanceTerm() {
        // No variance on either side: SSIM is (2ab + c1) / (a² + b² + c1).
        let c1 = 2.55 * 2.55
        let expected = (2 * 100.0 * 120 + c1) / (100.0 * 100 + 120 * 120 + c1)
        #expect(abs(Self.window(Array(repeating: 100, count: 64), Array(repeating: 120, count: 64)) - expected) < 1e-12)
    }

    @Test func itIsSymmetricAndFallsWithNoise() {
        let a = (0..<64).map { Double(($0 * 37) % 200) }
        let slightly = a.enumerated().map { $1 + Double($0 % 3) - 1 }
        let heavily = a.enumerated().map { $1 + Double(($0 * 13) % 41) - 20 }
        #expect(abs(Self.window(a, slightly) - Self.window(slightly, a)) < 1e-12)
        #expect(Self.window(a, slightly) > Self.window(a, heavily))
        #expect(Self.window(a, heavily) < 1 && Self.window(a, heavily) > -1)
    }

    static func picture(brightness: Double, index: Int = 0, width: Int = 64, height: Int = 48) throws -> Frame {
        let frame = try Frame(width: width, height: height, pixelFormat: .yuv420p)
        try frame.fillTestPattern(index: index, brightness: brightness)
        return frame
    }

    @Test func aPictureAgainstItselfIsOneOverEveryWindow() throws {
        let picture = try Self.picture(brightness: 0.7)
        let ssim = try picture.lumaSSIM(against: try Self.picture(brightness: 0.7))
        #expect(ssim.windows == (64 / 4 - 1) * (48 / 4 - 1))
        #expect(abs(ssim.mean - 1) < 1e-12)
    }

    @Test func anotherPictureScoresBelowOneAndPoolingAddsWindows() throws {
        let a = try Self.picture(brightness: 0.7), b = try Self.picture(brightness: 0.7, index: 9)
        let ssim = try a.lumaSSIM(against: b)
        #expect(ssim.mean < 0.99, "\(ssim.mean)")
        let pooled = ssim + (try a.lumaSSIM(against: a))
        #expect(pooled.windows == 2 * ssim.windows && abs(pooled.mean - (ssim.mean + 1) / 2) < 1e-12)
    }

    @Test func picturesOfTwoSizesCannotBeCompared() throws {
        let error = #expect(throws: AVError.self) {
            try Self.picture(brightness: 0.5).lumaSSIM(
                against: try Self.picture(brightness: 0.5, width: 32, height: 48))
        }
        #expect(error?.message.contains("64x48") == true && error?.message.contains("32x48") == true)
    }
}
