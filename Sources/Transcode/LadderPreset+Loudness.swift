internal import Loudness
package import MediaModel

extension LadderPreset {
    /// One loudness for every post (issue 61): each rendition's audio is brought to `target_lufs` (ITU-R BS.1770-4,
    /// measured once per upload) by a gain of at most `max_gain_db` up, and a true-peak limiter keeps the encoded
    /// audio at or under `true_peak_ceiling_dbtp`, holding the samples `codec_margin_db` lower for the AAC encoder's
    /// overshoot. Silence is left alone.
    package struct Loudness: Codable, Sendable, Equatable {
        package var enabled: Bool
        package var targetLUFS: Double
        package var truePeakCeilingDBTP: Double
        package var maxGainDB: Double
        package var codecMarginDB: Double

        package init(
            enabled: Bool, targetLUFS: Double, truePeakCeilingDBTP: Double, maxGainDB: Double, codecMarginDB: Double
        ) {
            self.enabled = enabled
            self.targetLUFS = targetLUFS
            self.truePeakCeilingDBTP = truePeakCeilingDBTP
            self.maxGainDB = maxGainDB
            self.codecMarginDB = codecMarginDB
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case enabled
            case targetLUFS = "target_lufs"
            case truePeakCeilingDBTP = "true_peak_ceiling_dbtp"
            case maxGainDB = "max_gain_db"
            case codecMarginDB = "codec_margin_db"
        }

        /// -14 LUFS (what the large short-video and streaming services play at), -1 dBTP, at most +20 dB, and the
        /// limiter 2 dB under the ceiling: Reel's 64 kb/s AAC rung put limited peaks up to 1.4 dB above the limiter's
        /// level (docs/hls.md, "Loudness").
        package static let `default` = Loudness(
            enabled: true, targetLUFS: -14, truePeakCeilingDBTP: -1, maxGainDB: 20, codecMarginDB: 2)

        var policy: LoudnessPolicy {
            LoudnessPolicy(
                targetLUFS: targetLUFS, truePeakCeilingDBTP: truePeakCeilingDBTP, maxGainDB: maxGainDB,
                codecMarginDB: codecMarginDB)
        }

        func validate(_ check: inout PresetCheck, at path: String) {
            check.within(targetLUFS, -40...(-5), at: path + ".target_lufs")
            check.within(truePeakCeilingDBTP, -12...0, at: path + ".true_peak_ceiling_dbtp")
            check.within(maxGainDB, 0...40, at: path + ".max_gain_db")
            check.within(codecMarginDB, 0...6, at: path + ".codec_margin_db")
            check.require(
                targetLUFS < truePeakCeilingDBTP - codecMarginDB, at: path + ".target_lufs",
                "must be below true_peak_ceiling_dbtp - codec_margin_db (\(truePeakCeilingDBTP - codecMarginDB)),"
                    + " got \(targetLUFS)")
        }
    }
}
