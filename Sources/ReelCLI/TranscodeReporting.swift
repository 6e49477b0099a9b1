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
