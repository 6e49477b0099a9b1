import ArgumentParser
import FileSystem
import Foundation
import Ingest
import MediaModel

/// How commands find and read presets; the decoding itself is `PresetLoader`'s.
extension PresetFile {
    /// The path an option gives, else `Presets/<fileName>` when the working directory has one.
    static func path(option: String?) -> String? {
        let shipped = "Presets/" + fileName
        return option ?? (Directory.exists(shipped) ? shipped : nil)
    }

    /// The preset `path(option:)` finds, or the built-in defaults when there is no file.
    /// - Throws: `ValidationError` (exit 64) for a file that cannot be used: never a silent fall-back to defaults.
    static func load(option: String?) throws -> Self {
        guard let path = path(option: option) else { return .default }
        do {
            return try load(from: path)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
