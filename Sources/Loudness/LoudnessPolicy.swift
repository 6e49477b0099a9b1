/// How a clip's audio is brought to one loudness: a gain towards `targetLUFS`, at most `maxGainDB` up, and a
/// true-peak limiter where the gain alone would put the peaks above `truePeakCeilingDBTP` less `codecMarginDB` (the
/// overshoot the AAC encoder adds after the limiter).
package struct LoudnessPolicy: Sendable, Equatable {
    /// Integrated loudness (ITU-R BS.1770-4) every post is brought to.
    package var targetLUFS: Double
    /// The highest true peak the encoded audio may reach.
    package var truePeakCeilingDBTP: Double
    /// The most a quiet clip is raised; a clip that needs more stops at it (`LoudnessDecision.isCapped`).
    package var maxGainDB: Double
    /// How far below the ceiling the limiter holds the peaks, for the encoder's overshoot.
    package var codecMarginDB: Double

    /// BS.1770's absolute gate: a clip whose every 400 ms block is quieter than this has nothing to measure.
    package static let silenceLUFS = -70.0

    package init(targetLUFS: Double, truePeakCeilingDBTP: Double, maxGainDB: Double, codecMarginDB: Double) {
        self.targetLUFS = targetLUFS
        self.truePeakCeilingDBTP = truePeakCeilingDBTP
        self.maxGainDB = maxGainDB
        self.codecMarginDB = codecMarginDB
    }

    /// The peak level the limiter holds the samples under.
    package var limiterThresholdDBTP: Double { truePeakCeilingDBTP - codecMarginDB }

    /// Whether a clip's audio may be kept as it is, without re-encoding: silent, or within `tolerance` LU of the
    /// target with its true peak at most the ceiling.
    package func accepts(sourceLUFS: Double, sourceTruePeakDBTP: Double, tolerance: Double = 0.5) -> Bool {
        let decision = decide(sourceLUFS: sourceLUFS, sourceTruePeakDBTP: sourceTruePeakDBTP)
        return decision.isSilent
            || (abs(targetLUFS - sourceLUFS) <= tolerance && sourceTruePeakDBTP <= truePeakCeilingDBTP)
    }

    /// What to do with a clip measured at `sourceLUFS` (`-infinity` when BS.1770's gates leave nothing) with its
    /// highest true peak at `sourceTruePeakDBTP`.
    package func decide(sourceLUFS: Double, sourceTruePeakDBTP: Double) -> LoudnessDecision {
        guard sourceLUFS.isFinite, sourceLUFS > Self.silenceLUFS else {
            return LoudnessDecision(gainDB: 0, isSilent: true, isCapped: false, needsLimiter: false, policy: self)
        }
        let wanted = targetLUFS - sourceLUFS
        let gain = min(wanted, maxGainDB)
        let peak = sourceTruePeakDBTP + gain
        return LoudnessDecision(
            gainDB: gain, isSilent: false, isCapped: wanted > maxGainDB,
            needsLimiter: peak.isFinite && peak > limiterThresholdDBTP, policy: self)
    }
}
