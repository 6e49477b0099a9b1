import Foundation
import MediaModel

extension TranscodeReporting {
    /// One line on what the source's audio measured and what brought it to the target (issue 61).
    static func describe(_ loudness: AudioLoudness) -> String {
        guard !loudness.isSilent else { return "loudness: silent, left as it is" }
        let source = [
            loudness.sourceLUFS.map { String(format: "%.1f LUFS", $0) },
            loudness.sourceTruePeakDBTP.map { String(format: "%.1f dBTP", $0) },
        ].compactMap { $0 }.joined(separator: ", ")
        var line = String(
            format: "loudness: %@ in, %+.1f dB to %.0f LUFS", source, loudness.gainDB, loudness.targetLUFS)
        if loudness.isLimited { line += String(format: ", peaks limited to %.0f dBTP", loudness.truePeakCeilingDBTP) }
        if loudness.isCapped { line += " (capped: the maximum gain stops short of the target)" }
        return line
    }
}
