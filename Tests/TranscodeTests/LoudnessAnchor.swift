import Foundation
import MediaFixtures

/// The shared loudness anchor (`../shared/anchors/loudness.sh`: the ffmpeg CLI's ebur128 filter, a meter Reel did not
/// write), and the ffmpeg CLI that makes the test clips; both when this machine has them (`make test` installs ffmpeg).
enum LoudnessAnchor {
    static var ffmpeg: String? {
        ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var script: String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = root.deletingLastPathComponent().appendingPathComponent("shared/anchors/loudness.sh").path
        return ffmpeg != nil && FileManager.default.isExecutableFile(atPath: script) ? script : nil
    }

    static var isAvailable: Bool { script != nil }

    struct Reading: CustomStringConvertible {
        var lufs: Double
        var truePeakDBTP: Double
        var description: String { "\(lufs) LUFS, \(truePeakDBTP) dBTP" }
    }

    /// ebur128's integrated loudness and true peak of a file or an HLS rendition folder. A silent input reads -70
    /// LUFS (ebur128's floor) and `-infinity` dBTP.
    static func measure(_ path: String) async throws -> Reading {
        guard let script else { throw AnchorError(message: "no loudness anchor on this machine") }
        let result = try await ChildProcess.run([script, path], within: .seconds(120))
        guard result.status == 0,
            let lufs = result.stdout.firstMatch(of: /integrated_lufs=(-?[0-9.]+)/).flatMap({ Double($0.1) }),
            let peak = result.stdout.firstMatch(of: /true_peak_dbtp=(-?[0-9.]+|-inf)/).map({ String($0.1) })
        else {
            throw AnchorError(message: "loudness.sh \(path) exited \(result.status): \(result.stdout) \(result.stderr)")
        }
        return Reading(lufs: lufs, truePeakDBTP: peak == "-inf" ? -.infinity : Double(peak) ?? .nan)
    }

    /// Writes an 8 s 180x320 clip whose audio is the lavfi source `audio` (AAC at 192 kb/s, 48 kHz stereo), or none.
    static func makeClip(audio: String?, to path: String, seconds: Int = 8) async throws {
        guard let ffmpeg else { throw AnchorError(message: "no ffmpeg CLI on this machine") }
        var command = [
            ffmpeg, "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
            "color=c=gray:s=180x320:r=15:d=\(seconds)",
        ]
        if let audio { command += ["-f", "lavfi", "-i", audio, "-map", "0:v", "-map", "1:a"] }
        command += ["-t", "\(seconds)", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
        if audio != nil { command += ["-c:a", "aac", "-b:a", "192k", "-ar", "48000", "-ac", "2"] }
        command.append(path)
        let result = try await ChildProcess.run(command, within: .seconds(120))
        guard result.status == 0 else {
            throw AnchorError(message: "ffmpeg exited \(result.status) making \(path): \(result.stderr)")
        }
    }

    struct AnchorError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
