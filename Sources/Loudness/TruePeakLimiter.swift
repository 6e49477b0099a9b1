internal import Foundation

/// A lookahead limiter that keeps the true peak (4x oversampled, `PeakInterpolator`) of planar float audio at or
/// under `threshold`. The gain each sample needs is held over the lookahead plus the interpolator's reach, then
/// averaged over the lookahead, so the gain falls in a smooth ramp that is fully down when the peak arrives; it
/// rises again with a one-pole release. All channels share one gain (the stereo image does not move).
///
/// Output sample n is input sample n: the output lags by `latency` samples, and `finish()` returns the rest.
package struct TruePeakLimiter: Sendable {
    package let channels: Int
    /// The linear amplitude no output true peak exceeds (before any lossy encoding).
    package let threshold: Float
    /// Samples over which the gain ramps down ahead of a peak.
    package let lookahead: Int
    let releaseCoefficient: Float
    let interpolator: PeakInterpolator
    /// Samples an input sample spends inside the limiter.
    package var latency: Int { 2 * interpolator.halfLength + lookahead - 1 }

    /// Input samples by channel from absolute index `historyStart` on (negative indices are the silence before).
    private var history: [[Float]]
    private var historyStart: Int
    private var received = 0
    /// Next sample whose needed gain is to be worked out, and next sample to give out.
    private var nextPeak = 0
    private var emitted = 0
    /// Sliding minimum of the needed gains over the hold window: indices and gains, increasing gains from `holdHead`.
    private var holdIndices: [Int] = []
    private var holdGains: [Float] = []
    private var holdHead = 0
    /// The last `lookahead` held gains and their sum (the ramp).
    private var ring: [Float]
    private var ringPosition = 0
    private var ringSum: Double
    private var gain: Float = 1
    /// Blocks of samples whose peaks cannot reach the threshold are not interpolated: up to `checkedUntil`,
    /// `checkedQuiet` says whether the current block is such a block.
    private var checkedUntil = 0
    private var checkedQuiet = false
    private static let quietBlock = 64
    /// The deepest gain applied so far (1 when the limiter never acted).
    package private(set) var minimumGain: Float = 1
    /// Stretches held under a lower threshold (`ThresholdTrims`), as (input range, linear factor), in order; the
    /// first that may still matter is at `trimCursor` (samples are looked at in order).
    private let trims: [(range: Range<Int>, factor: Float)]
    private var trimCursor = 0

    /// - Parameters:
    ///   - thresholdDBTP: the true-peak level the output is held under.
    ///   - lookaheadSeconds: how early the gain starts to fall before a peak (5 ms: no audible click, little pumping).
    ///   - releaseSeconds: the time constant with which the gain comes back.
    package init(
        channels: Int, sampleRate: Int, thresholdDBTP: Double, lookaheadSeconds: Double = 0.005,
        releaseSeconds: Double = 0.1, interpolator: PeakInterpolator = PeakInterpolator(),
        trims: ThresholdTrims = ThresholdTrims()
    ) {
        precondition(channels > 0 && sampleRate > 0, "a limiter needs channels and a sample rate")
        self.channels = channels
        threshold = Float(decibelsToAmplitude(thresholdDBTP))
        lookahead = max(1, Int((lookaheadSeconds * Double(sampleRate)).rounded()))
        releaseCoefficient = Float(1 - exp(-1 / max(releaseSeconds * Double(sampleRate), 1)))
        self.interpolator = interpolator
        history = Array(repeating: Array(repeating: 0, count: interpolator.halfLength), count: channels)
        historyStart = -interpolator.halfLength
        ring = Array(repeating: 1, count: lookahead)
        ringSum = Double(lookahead)
        self.trims = trims.stretches.map { ($0.range, Float(decibelsToAmplitude(-$0.decibels))) }
    }

    /// Takes one block (one array per channel, all the same length); returns the samples that are ready.
    package mutating func process(_ block: [[Float]]) -> [[Float]] {
        precondition(block.count == channels, "\(block.count) channels given to a \(channels)-channel limiter")
        let count = block[0].count
        precondition(block.allSatisfy { $0.count == count }, "channels of different lengths")
        for channel in 0..<channels { history[channel].append(contentsOf: block[channel]) }
        received += count
        var out = Array(repeating: [Float](), count: channels)
        let halfLength = interpolator.halfLength
        let window = lookahead + 2 * halfLength
        while nextPeak + halfLength < received {
            let n = nextPeak
            let needed = neededGain(at: n)
            while holdGains.count > holdHead, holdGains[holdGains.count - 1] >= needed {
                holdGains.removeLast()
                holdIndices.removeLast()
            }
            holdGains.append(needed)
            holdIndices.append(n)
            while holdIndices[holdHead] <= n - window { holdHead += 1 }
            let held = holdGains[holdHead]
            ringSum += Double(held) - Double(ring[ringPosition])
            ring[ringPosition] = held
            ringPosition = ringPosition + 1 == lookahead ? 0 : ringPosition + 1
            // Sample m's gain is the mean of the held gains from m + halfLength on, over the lookahead: every one of
            // them has seen any peak within halfLength of m, so the ramp is fully down across each peak's taps.
            let m = n - (halfLength + lookahead - 1)
            if m >= 0 {
                let target = Float(ringSum / Double(lookahead))
                gain = target < gain ? target : gain + (target - gain) * releaseCoefficient
                minimumGain = min(minimumGain, gain)
                for channel in 0..<channels { out[channel].append(history[channel][m - historyStart] * gain) }
                emitted = m + 1
            }
            nextPeak += 1
        }
        compact()
        return out
    }

    /// The samples still inside the limiter, at the end of the stream (it is then spent).
    package mutating func finish() -> [[Float]] {
        let total = received
        let before = emitted
        let out = process(Array(repeating: Array(repeating: 0, count: latency + 1), count: channels))
        return out.map { Array($0.prefix(total - before)) }
    }

    /// The threshold at sample `n` and the lowest one over `n..<end`; `n` never goes back.
    private mutating func thresholds(at n: Int, through end: Int) -> (here: Float, lowest: Float) {
        while trimCursor < trims.count, trims[trimCursor].range.upperBound <= n { trimCursor += 1 }
        var here = threshold
        var lowest = threshold
        var i = trimCursor
        while i < trims.count, trims[i].range.lowerBound < end {
            let lowered = threshold * trims[i].factor
            if trims[i].range.contains(n) { here = lowered }
            lowest = min(lowest, lowered)
            i += 1
        }
        return (here, lowest)
    }

    /// The gain sample `n` needs so that it and the three points after it stay under the threshold.
    private mutating func neededGain(at n: Int) -> Float {
        let halfLength = interpolator.halfLength
        // A block's peaks can be bounded only once every sample its taps reach has arrived; until then, each
        // sample is interpolated.
        let end = n + Self.quietBlock
        let (threshold, lowest) = trims.isEmpty ? (self.threshold, self.threshold) : thresholds(at: n, through: end)
        if n >= checkedUntil, end - 1 + halfLength < received {
            var loudest: Float = 0
            for channel in 0..<channels {
                let samples = history[channel]
                for i in (n - halfLength + 1 - historyStart)...(end - 1 + halfLength - historyStart) {
                    loudest = max(loudest, abs(samples[i]))
                }
            }
            checkedUntil = end
            checkedQuiet = loudest * interpolator.worstCaseGain <= lowest
        }
        if n < checkedUntil, checkedQuiet { return 1 }
        var peak: Float = 0
        for channel in 0..<channels {
            peak = max(peak, interpolator.peak(history[channel], at: n - historyStart))
        }
        return peak > threshold ? threshold / peak : 1
    }

    /// Drops samples and held gains no longer needed, now and then (so the arrays do not grow with the clip).
    private mutating func compact() {
        let keepFrom = min(emitted, nextPeak - interpolator.halfLength + 1)
        let drop = keepFrom - historyStart
        if drop >= 16_384 {
            for channel in 0..<channels { history[channel].removeFirst(drop) }
            historyStart += drop
        }
        if holdHead >= 4_096 {
            holdGains.removeFirst(holdHead)
            holdIndices.removeFirst(holdHead)
            holdHead = 0
        }
    }
}
