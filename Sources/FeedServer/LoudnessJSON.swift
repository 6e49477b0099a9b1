internal import MediaModel

/// A video's `loudness` object, as the feed item and the job body show it: the keys `reel transcode --json` writes
/// (`AudioLoudness`), so a client that normalises by itself reads one shape everywhere.
enum LoudnessJSON {
    static func write(_ loudness: AudioLoudness, into json: inout JSONWriter) {
        json.object { json in
            json.key("source_lufs")
            if let value = loudness.sourceLUFS { json.double(value) } else { json.null() }
            json.key("source_true_peak_dbtp")
            if let value = loudness.sourceTruePeakDBTP { json.double(value) } else { json.null() }
            json.key("gain_db")
            json.double(loudness.gainDB)
            json.key("target_lufs")
            json.double(loudness.targetLUFS)
            json.key("true_peak_ceiling_dbtp")
            json.double(loudness.truePeakCeilingDBTP)
            json.key("limited")
            json.raw(loudness.isLimited ? "true" : "false")
            json.key("capped")
            json.raw(loudness.isCapped ? "true" : "false")
            json.key("silent")
            json.raw(loudness.isSilent ? "true" : "false")
        }
    }
}
