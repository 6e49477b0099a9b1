import ArgumentParser
import FileSystem
import Foundation
import Transcode

/// What `transcode` and `compress` share on the terminal: the progress line, the failure report and exit codes.
enum TranscodeReporting {
    static func progressLine(_ progress: TranscodeProgress) {
        StandardError.write(
            String(format: "\r%5.1f%%  %.2fx  ETA %.0fs ", progress.percent, progress.speed, progress.etaSeconds))
    }

    /// Why content-aware rates stopped after their first probes, with what those probes measured and cost.
    static func describe(
        _ stopped: RateAnalysis.StopReason, _ first: RateAnalysis.FirstProbes, _ analysis: RateAnalysis
    ) -> String {
        let points = first.probes.sorted { $0.crf < $1.crf }
        let measured = points.map {
            String(format: "CRF %g: %.0f kb/s, SSIM-Y %.4f", $0.crf, $0.kilobitsPerSecond, $0.ssimY)
        }
        .joined(separator: "; ")
        let why: String
        switch stopped {
        case .noSaving: why = "the higher CRF saves under 5 % of the bytes"
        case .qualityBinds: why = "SSIM-Y reaches its floor within one CRF step"
        }
        return "content-aware rates: stopped after the first probes (\(first.rung), "
            + String(
                format: "the first %.1f s beside the ladder's own encode, %.1f CPU s more): ", first.seconds,
                analysis.cpuSeconds)
            + why + " (" + measured + "); every rung keeps its CRF"
    }

    /// How the published ladder stands against the content-aware bounds, and what was encoded again to keep them.
    static func describe(_ check: RateCheck) -> String {
        let again = check.renditions.filter { $0.attempts.count > 1 }.map { rendition in
            rendition.id + " CRF " + rendition.attempts.map { String(format: "%g", $0.crf) }.joined(separator: " → ")
        }
        let worst = check.renditions.compactMap { rendition in
            rendition.attempts.last.map { ($0.ssimY - $0.lowestSSIMY, rendition.id) }
        }
        .min { $0.0 < $1.0 }
        let margin = worst.map { String(format: "; closest to its bound: %@ by %.4f", $0.1, $0.0) } ?? ""
        let verdict = check.inside ? "every rendition inside its bound" : "NOT every rendition inside its bound"
        guard !again.isEmpty else { return "content-aware check: \(verdict)\(margin)" }
        return "content-aware check: \(verdict) after encoding again "
            + again.joined(separator: ", ")
            + String(
                format: " (%d pass%@, %.1f s, %.1f CPU s)", check.passes, check.passes == 1 ? "" : "es",
                check.elapsedSeconds, check.cpuSeconds) + margin
    }

    /// Prints the failure (JSON or a line on stderr) and returns the exit code: 65 rejected, 70 failed, 130 interrupted.
    static func exitCode(for error: TranscodeError, json: Bool) -> ExitCode {
        if json {
            JSONOutput.print(
                Reel.TranscodeCommand.Failure(
                    accepted: false, reason: error.code, message: error.message, path: error.path))
        } else {
            printError("\(error.code): \(error.path): \(error.message)")
        }
        switch error.kind {
        case .rejected: return ExitCode(65)
        case .cancelled: return ExitCode(130)
        case .failed: return ExitCode(70)
        }
    }
}
