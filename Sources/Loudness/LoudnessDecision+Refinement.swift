extension LoudnessDecision {
    /// Where the limiter acts, it takes loudness off with the peaks (a lot, for audio whose loudness sits in its
    /// peaks), so the gain that reaches the target is found on the clip itself: the whole chain runs over `audio`
    /// (planar, at `sampleRate`), `measure` reads the result's integrated loudness, and the gain moves by the miss
    /// over the last step's slope, at most `steps` times, never past `maxGainDB` (then `isCapped`).
    /// A decision that needs no limiter is exact already and comes back unchanged.
    package func refined(
        for audio: [[Float]], sampleRate: Int, steps: Int = 4, tolerance: Double = 0.1,
        measure: ([[Float]]) throws -> Double
    ) rethrows -> LoudnessDecision {
        guard needsLimiter, !isSilent, let samples = audio.first?.count, samples > 0 else { return self }
        var decision = self
        var slope = 1.0
        var last: (gain: Double, lufs: Double)?
        for _ in 0..<steps {
            guard var normalizer = decision.makeNormalizer(channels: audio.count, sampleRate: sampleRate) else { break }
            let head = normalizer.process(audio)
            let tail = normalizer.finish()
            let lufs = try measure(zip(head, tail).map { $0 + $1 })
            if let last, decision.gainDB != last.gain {
                // The output rises more slowly than the gain where the limiter holds it; never treat it as falling.
                slope = min(1, max(0.05, (lufs - last.lufs) / (decision.gainDB - last.gain)))
            }
            last = (decision.gainDB, lufs)
            let miss = policy.targetLUFS - lufs
            guard lufs.isFinite, abs(miss) > tolerance else { break }
            let next = min(decision.gainDB + miss / slope, policy.maxGainDB)
            decision.isCapped = miss > 0 && next >= policy.maxGainDB
            guard next != decision.gainDB else { break }
            decision.gainDB = next
        }
        return decision
    }
}
