internal import Foundation

/// Applies a decided gain, then (where the decision needs one) the true-peak limiter, to planar float audio in
/// blocks of any size. Output keeps the input's timing: sample n out is sample n in, only the first blocks come out
/// shorter (the limiter's lookahead) and `finish()` returns the rest.
package struct LoudnessNormalizer: Sendable {
    package let gain: Float
    package let channels: Int
    package private(set) var limiter: TruePeakLimiter?
    /// Samples per channel taken in and given out so far.
    package private(set) var samplesIn = 0
    package private(set) var samplesOut = 0

    package init(gainDB: Double, channels: Int, limiter: TruePeakLimiter?) {
        precondition(channels > 0, "a normalizer needs at least one channel")
        gain = Float(decibelsToAmplitude(gainDB))
        self.channels = channels
        self.limiter = limiter
    }

    /// Processes one block (one array per channel, all the same length); returns the samples ready so far.
    package mutating func process(_ block: [[Float]]) -> [[Float]] {
        precondition(block.count == channels, "\(block.count) channels given to a \(channels)-channel normalizer")
        samplesIn += block.first?.count ?? 0
        let scaled = gain == 1 ? block : block.map { $0.map { $0 * gain } }
        let out = limiter != nil ? limiter!.process(scaled) : scaled
        samplesOut += out.first?.count ?? 0
        return out
    }

    /// The samples still held back by the limiter's lookahead, at the end of the stream.
    package mutating func finish() -> [[Float]] {
        guard limiter != nil else { return Array(repeating: [], count: channels) }
        let out = limiter!.finish()
        samplesOut += out.first?.count ?? 0
        return out
    }
}

/// 20·log10 inverted: the linear amplitude of a level in dB.
package func decibelsToAmplitude(_ decibels: Double) -> Double { pow(10, decibels / 20) }

/// The level in dB of a linear amplitude (`-infinity` for 0).
package func amplitudeToDecibels(_ amplitude: Double) -> Double {
    amplitude > 0 ? 20 * log10(amplitude) : -.infinity
}
