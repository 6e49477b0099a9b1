/// How loud a post's audio was and what Reel did to it (issue 61): every rendition's audio is brought to
/// `targetLUFS` (ITU-R BS.1770-4 integrated loudness) with its true peak at most `truePeakCeilingDBTP`. Published in
/// the transcode summary, the job's outcome and each feed item, so a client that normalises by itself can.
public struct AudioLoudness: Sendable, Equatable, Codable {
    /// The source's integrated loudness and highest true peak, measured once per upload on the audio as the ladder
    /// resamples it; nil when BS.1770's gates leave nothing to measure (silence) or the peak is digital silence.
    public var sourceLUFS: Double?
    public var sourceTruePeakDBTP: Double?
    /// The gain applied to every rendition's audio (0 when it was left alone).
    public var gainDB: Double
    public var targetLUFS: Double
    public var truePeakCeilingDBTP: Double
    /// The true-peak limiter lowered some peaks (the gain alone would have passed the ceiling).
    public var isLimited: Bool
    /// The clip needed more than the preset's maximum gain and stops short of the target.
    public var isCapped: Bool
    /// Nothing to measure: the audio was left as it is.
    public var isSilent: Bool

    public init(
        sourceLUFS: Double?, sourceTruePeakDBTP: Double?, gainDB: Double, targetLUFS: Double,
        truePeakCeilingDBTP: Double, isLimited: Bool, isCapped: Bool, isSilent: Bool
    ) {
        self.sourceLUFS = sourceLUFS
        self.sourceTruePeakDBTP = sourceTruePeakDBTP
        self.gainDB = gainDB
        self.targetLUFS = targetLUFS
        self.truePeakCeilingDBTP = truePeakCeilingDBTP
        self.isLimited = isLimited
        self.isCapped = isCapped
        self.isSilent = isSilent
    }

    enum CodingKeys: String, CodingKey {
        case sourceLUFS = "source_lufs"
        case sourceTruePeakDBTP = "source_true_peak_dbtp"
        case gainDB = "gain_db"
        case targetLUFS = "target_lufs"
        case truePeakCeilingDBTP = "true_peak_ceiling_dbtp"
        case isLimited = "limited"
        case isCapped = "capped"
        case isSilent = "silent"
    }

    /// One word for what was done: `silent`, `capped`, `limited` or `normalized`.
    public var treatment: String {
        isSilent ? "silent" : isCapped ? "capped" : isLimited ? "limited" : "normalized"
    }
}
