import Foundation
import LibEBUR128

/// Deterministic test signals (seeded, so a failure repeats) and libebur128's reading of them.
enum TestSignals {
    static let rate = 48_000

    /// SplitMix64: the same numbers for the same seed on every machine.
    struct Noise {
        var state: UInt64
        mutating func next() -> Float {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Float(Double(z >> 11) / Double(1 << 53)) * 2 - 1
        }
    }

    /// White noise in [-amplitude, amplitude], independent per channel.
    static func noise(seconds: Double, amplitude: Float, channels: Int = 2, seed: UInt64 = 1) -> [[Float]] {
        var generator = Noise(state: seed)
        let count = Int(seconds * Double(rate))
        return (0..<channels).map { _ in (0..<count).map { _ in generator.next() * amplitude } }
    }

    /// A sine of `frequency` Hz starting at `phase` radians, the same in every channel.
    static func sine(
        seconds: Double, frequency: Double, amplitude: Float, phase: Double = 0, channels: Int = 2
    ) -> [[Float]] {
        let count = Int(seconds * Double(rate))
        let one = (0..<count).map { i in
            amplitude * Float(sin(2 * Double.pi * frequency * Double(i) / Double(rate) + phase))
        }
        return Array(repeating: one, count: channels)
    }

    static func interleave(_ channels: [[Float]]) -> [Float] {
        guard let count = channels.first?.count else { return [] }
        var out = [Float](repeating: 0, count: count * channels.count)
        for (c, samples) in channels.enumerated() {
            for i in 0..<count { out[i * channels.count + c] = samples[i] }
        }
        return out
    }

    /// libebur128's integrated loudness (LUFS) and highest true peak (dBTP) of planar audio.
    static func measure(_ channels: [[Float]]) throws -> (lufs: Double, truePeakDBTP: Double) {
        let state = try EBUR128State(channels: channels.count, sampleRate: rate, mode: [.integrated, .truePeak])
        try state.add(interleaved: interleave(channels))
        let peak = try (0..<channels.count).map { try state.truePeak(channel: $0) }.max() ?? 0
        return (try state.integratedLoudness(), peak > 0 ? 20 * log10(peak) : -.infinity)
    }

    /// Runs `blocks` through `process`, cutting the signal into blocks of `size` samples, and appends `finish`.
    static func run(
        _ signal: [[Float]], blockSize size: Int, process: (inout [[Float]], [[Float]]) -> Void,
        finish: (inout [[Float]]) -> Void
    ) -> [[Float]] {
        var out = Array(repeating: [Float](), count: signal.count)
        var start = 0
        let count = signal[0].count
        while start < count {
            let end = min(start + size, count)
            process(&out, signal.map { Array($0[start..<end]) })
            start = end
        }
        finish(&out)
        return out
    }
}
