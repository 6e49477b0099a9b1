import ArgumentParser
import Foundation
import Ingest
import MediaModel

/// `--limits PATH`, shared by every command that admits uploads.
struct LimitsOption: ParsableArguments {
    @Option(name: .long, help: "Limits JSON (default: Presets/limits.json when present, else the built-in defaults).")
    var limits: String?

    func load() throws -> AdmissionLimits {
        if let limits { return try AdmissionLimits.load(from: limits) }
        if FileManager.default.fileExists(atPath: "Presets/limits.json") {
            return try AdmissionLimits.load(from: "Presets/limits.json")
        }
        return .default
    }
}
