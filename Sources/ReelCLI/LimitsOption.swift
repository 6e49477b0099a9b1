import ArgumentParser
import Foundation
import Ingest
import MediaModel

/// `--limits PATH`, shared by every command that admits uploads.
struct LimitsOption: ParsableArguments {
    @Option(name: .long, help: "Limits JSON (default: Presets/limits.json when present, else the built-in defaults).")
    var limits: String?

    /// A limits file that cannot be read is a usage error (exit 64), never a silent fall-back to defaults.
    func load() throws -> AdmissionLimits {
        let path = limits ?? (FileManager.default.fileExists(atPath: "Presets/limits.json") ? "Presets/limits.json" : nil)
        guard let path else { return .default }
        do {
            return try AdmissionLimits.load(from: path)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
