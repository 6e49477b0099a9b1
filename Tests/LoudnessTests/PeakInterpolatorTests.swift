import Foundation
import Loudness
import Testing

@Suite(.timeLimit(.minutes(1))) struct PeakInterpolatorTests {
    let interpolator = PeakInterpolator()

    /// A sine at a quarter of the rate, sampled 45° off its crests: every sample is at 0.707 of the amplitude and
    /// the true peak lies between samples. The interpolator finds it (a sample-peak meter reads 3 dB low).
    @Test func findsThePeakBetweenSamples() {
        let sine = TestSignals.sine(seconds: 0.01, frequency: 12_000, amplitude: 0.5, phase: Double.pi / 4)[0]
        #expect(sine.map(abs).max()! < 0.36)
        let peaks = (20..<400).map { interpolator.peak(sine, at: $0) }
        #expect(abs(peaks.max()! - 0.5) < 0.01, "found \(peaks.max()!)")
    }

    @Test func keepsAConstantConstant() {
        let constant = [Float](repeating: 0.25, count: 64)
        for n in 10..<50 { #expect(abs(interpolator.peak(constant, at: n) - 0.25) < 1e-5) }
    }

    /// No point can exceed the nearby samples by more than the largest sum of absolute taps: the bound the limiter
    /// uses to skip quiet blocks.
    @Test func neverExceedsItsWorstCaseGain() {
        var noise = TestSignals.Noise(state: 7)
        let samples = (0..<4_000).map { _ in noise.next() }
        let over = (20..<3_980).filter { n in
            let nearby = samples[(n - 7)...(n + 8)].map(abs).max()!
            return interpolator.peak(samples, at: n) > nearby * interpolator.worstCaseGain + 1e-6
        }
        #expect(over.isEmpty)
        #expect(interpolator.worstCaseGain > 1 && interpolator.worstCaseGain < 3, "\(interpolator.worstCaseGain)")
    }
}
