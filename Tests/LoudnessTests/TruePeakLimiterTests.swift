import Foundation
import Loudness
import Testing

/// The limiter is judged by libebur128's true-peak meter (which Reel did not write), on the samples it gives out.
@Suite(.timeLimit(.minutes(3))) struct TruePeakLimiterTests {
    static func limit(
        _ signal: [[Float]], thresholdDBTP: Double = -2, blockSize: Int = 1024
    ) -> (
        out: [[Float]], limiter: TruePeakLimiter
    ) {
        var limiter = TruePeakLimiter(
            channels: signal.count, sampleRate: TestSignals.rate, thresholdDBTP: thresholdDBTP)
        let out = TestSignals.run(
            signal, blockSize: blockSize,
            process: { out, block in
                for (c, samples) in limiter.process(block).enumerated() { out[c] += samples }
            },
            finish: { out in
                for (c, samples) in limiter.finish().enumerated() { out[c] += samples }
            })
        return (out, limiter)
    }

    @Test func leavesAudioUnderTheThresholdUntouchedAndInTime() {
        let quiet = TestSignals.noise(seconds: 1, amplitude: 0.3)
        let (out, limiter) = Self.limit(quiet)
        #expect(out == quiet)
        #expect(limiter.minimumGain == 1)
    }

    /// Loud noise, a sine whose crests fall between samples, a full-scale square wave and lone clicks: the true
    /// peak out stays under the threshold (libebur128 reads it to 0.1 dB; its interpolator is not ours).
    @Test(arguments: ["noise", "intersample sine", "square", "clicks", "kick"])
    func holdsTheTruePeakUnderTheThreshold(signal name: String) throws {
        let signal: [[Float]]
        switch name {
        case "noise": signal = TestSignals.noise(seconds: 2, amplitude: 1)
        case "intersample sine":
            signal = TestSignals.sine(seconds: 2, frequency: 12_000, amplitude: 1.2, phase: Double.pi / 4)
        case "square":
            let one = (0..<96_000).map { i -> Float in (i / 60) % 2 == 0 ? 1 : -1 }
            signal = [one, one]
        case "kick":
            // A 70 Hz drum hit every 0.5 s over a quiet tone, raised 12.5 dB: 9 dB of limiting on every hit.
            let gain = Float(pow(10, 12.5 / 20))
            let one = (0..<96_000).map { i -> Float in
                let t = Double(i) / 48_000
                let hit = 0.5 * exp(-14 * t.truncatingRemainder(dividingBy: 0.5)) * sin(2 * Double.pi * 70 * t)
                return gain * Float(0.03 * sin(2 * Double.pi * 440 * t) + hit)
            }
            signal = [one, one]
        default:
            var one = [Float](repeating: 0, count: 96_000)
            for i in stride(from: 1_000, to: 96_000, by: 9_000) { one[i] = 1.5 }
            signal = [one, one.map { -$0 }]
        }
        let before = try TestSignals.measure(signal).truePeakDBTP
        let (out, limiter) = Self.limit(signal)
        let after = try TestSignals.measure(out).truePeakDBTP
        #expect(before > 0)
        #expect(after <= -2 + 0.1, "\(name): \(before) dBTP in, \(after) dBTP out")
        #expect(limiter.minimumGain < 1)
        #expect(out.map(\.count) == signal.map(\.count))
    }

    /// The same output whatever blocks the audio arrives in (AAC frames, resampler output, one sample at a time).
    @Test func givesTheSameOutputForAnyBlocking() {
        let signal = TestSignals.noise(seconds: 0.5, amplitude: 1.1, seed: 3)
        let reference = Self.limit(signal, blockSize: 1024).out
        for size in [1, 37, 480, 100_000] {
            #expect(Self.limit(signal, blockSize: size).out == reference, "block size \(size)")
        }
    }

    /// One burst in a quiet tone: the gain is fully down when the burst starts (the lookahead), falls in a ramp no
    /// steeper than the lookahead allows (no click), and comes back within a second (the release).
    @Test func rampsDownBeforeAPeakAndRecoversAfter() {
        var one = TestSignals.sine(seconds: 2, frequency: 440, amplitude: 0.25, channels: 1)[0]
        let burst = 48_000..<48_480
        for i in burst { one[i] *= 4 }  // to 1.0, 2 dB over a -2 dBTP threshold
        let (out, limiter) = Self.limit([one])
        let gains = zip(out[0], one).map { abs($1) > 0.05 ? $0 / $1 : Float.nan }
        let threshold = Float(pow(10, -2.0 / 20))
        // Fully down by the time the burst's crests come, already falling before its first sample.
        #expect(out[0][burst].map(abs).max()! <= threshold * 1.001)
        #expect(
            gains[burst.lowerBound - limiter.lookahead / 2].isNaN || gains[burst.lowerBound - limiter.lookahead / 2] < 1
        )
        #expect(gains[burst].first { !$0.isNaN }! < 0.9)
        let measured = gains.enumerated().filter { !$0.element.isNaN }
        let steepest = zip(measured, measured.dropFirst()).map {
            abs($1.element - $0.element) / Float($1.offset - $0.offset)
        }
        .max()!
        let depth = 1 - limiter.minimumGain
        #expect(steepest <= depth / Float(limiter.lookahead) * 1.05 + 1e-4, "a step of \(steepest)")
        let before = gains[..<(burst.lowerBound - limiter.lookahead - 20)].filter { !$0.isNaN }
        #expect(before.allSatisfy { abs($0 - 1) < 1e-4 })
        let secondLater = gains[(burst.upperBound + 48_000 - 2_400)...].filter { !$0.isNaN }
        #expect(secondLater.allSatisfy { $0 > 0.999 })
    }
}

/// A stretch of `ThresholdTrims` holds the peaks there under the lowered threshold, and the rest of the clip under
/// the plain one at its full level (libebur128 reads each part).
@Suite(.timeLimit(.minutes(1))) struct TruePeakLimiterTrimTests {
    @Test func holdsAStretchLowerAndLeavesTheRestAtTheThreshold() throws {
        let signal = TestSignals.sine(seconds: 3, frequency: 997, amplitude: 1)
        var trims = ThresholdTrims()
        trims.lower(48_000..<96_000, by: 4)
        var limiter = TruePeakLimiter(
            channels: 2, sampleRate: TestSignals.rate, thresholdDBTP: -3, trims: trims)
        let out = TestSignals.run(
            signal, blockSize: 1000,
            process: { out, block in
                for (c, samples) in limiter.process(block).enumerated() { out[c] += samples }
            },
            finish: { out in
                for (c, samples) in limiter.finish().enumerated() { out[c] += samples }
            })
        #expect(out[0].count == signal[0].count)
        func peak(_ range: Range<Int>) throws -> Double {
            try TestSignals.measure(out.map { Array($0[range]) }).truePeakDBTP
        }
        let inside = try peak(48_000..<96_000)
        #expect(inside <= -6.9 && inside >= -7.5, "inside the stretch: \(inside) dBTP")
        // The release (0.1 s) brings the level back; from half a second on, the plain threshold holds.
        let before = try peak(0..<47_000)
        let after = try peak(120_000..<144_000)
        #expect(before <= -2.9 && before >= -3.3, "before: \(before) dBTP")
        #expect(after <= -2.9 && after >= -3.3, "after: \(after) dBTP")
    }
}
