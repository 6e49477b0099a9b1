import ArgumentParser
import MediaModel

/// `--limits PATH`, shared by every command that admits uploads.
struct LimitsOption: ParsableArguments {
    @Option(name: .long, help: "Limits JSON (default: Presets/limits.json when present, else the built-in defaults).")
    var limits: String?

    /// A limits file that cannot be used is a usage error (exit 64), never a silent fall-back to defaults.
    func load() throws -> AdmissionLimits {
        try AdmissionLimits.load(option: limits)
    }
}
