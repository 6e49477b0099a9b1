import Foundation
import Loudness
import Testing

/// The whole chain on test signals, read back by libebur128: on target, under the ceiling, and in time.
@Suite(.timeLimit(.minutes(3))) struct LoudnessNormalizerTests {
    let policy = LoudnessPolicy(targetLUFS: -14, truePeakCeilingDBTP: -1, maxGainDB: 20, codecMarginDB: 1)

    func normalize(_ signal: [[Float]]) throws -> (out: [[Float]], decision: LoudnessDecision) {
        let source = try TestSignals.measure(signal)
        let decision = try policy.decide(sourceLUFS: source.lufs, sourceTruePeakDBTP: source.truePeakDBTP)
            .refined(for: signal, sampleRate: TestSignals.rate) { try TestSignals.measure($0).lufs }
        guard var normalizer = decision.makeNormalizer(channels: signal.count, sampleRate: TestSignals.rate) else {
            return (signal, decision)
        }
        let out = TestSignals.run(
            signal, blockSize: 1024,
            process: { out, block in for (c, s) in normalizer.process(block).enumerated() { out[c] += s } },
            finish: { out in for (c, s) in normalizer.finish().enumerated() { out[c] += s } })
        #expect(normalizer.samplesIn == normalizer.samplesOut)
        return (out, decision)
    }

    @Test func aQuietClipComesUpByGainAlone() throws {
        let quiet = TestSignals.sine(seconds: 3, frequency: 997, amplitude: 0.01)  // -40 LUFS
        let (out, decision) = try normalize(quiet)
        #expect(decision.isCapped && decision.gainDB == 20)
        let measured = try TestSignals.measure(out)
        #expect(abs(measured.lufs - -20) < 0.05)
    }

    @Test func gainAloneIsExact() throws {
        let signal = TestSignals.noise(seconds: 3, amplitude: 0.02)
        let source = try TestSignals.measure(signal)
        let (out, decision) = try normalize(signal)
        #expect(!decision.needsLimiter)
        let gain = Float(pow(10, decision.gainDB / 20))
        #expect(zip(out[0], signal[0]).allSatisfy { abs($0 - $1 * gain) < 1e-6 })
        #expect(abs(try TestSignals.measure(out).lufs - -14) < 0.01, "from \(source.lufs) LUFS")
    }

    /// Loud noise (true peak above full scale) comes down to the target by gain alone; quiet noise with clicks,
    /// raised to the target, has peaks far over the threshold, which the limiter takes off, with the loudness in
    /// them: the refined gain makes up for it.
    @Test(arguments: [false, true])
    func reachesTheTargetUnderTheCeiling(clicks: Bool) throws {
        var signal = TestSignals.noise(seconds: 4, amplitude: clicks ? 0.06 : 1, seed: 11)
        if clicks {
            for start in stride(from: 2_000, to: signal[0].count - 10, by: 4_800) {
                for i in start..<(start + 10) { signal[0][i] = 0.9 }
            }
        }
        let (out, decision) = try normalize(signal)
        #expect(decision.needsLimiter == clicks && !decision.isCapped)
        let measured = try TestSignals.measure(out)
        #expect(abs(measured.lufs - -14) < 0.5, "\(measured.lufs) LUFS, gain \(decision.gainDB)")
        #expect(measured.truePeakDBTP <= -2 + 0.1, "\(measured.truePeakDBTP) dBTP")
    }

    @Test func silenceComesOutAsItWent() throws {
        let silence = [[Float](repeating: 0, count: 48_000), [Float](repeating: 0, count: 48_000)]
        let (out, decision) = try normalize(silence)
        #expect(decision.isSilent)
        #expect(out == silence)
    }
}
