import ArgumentParser
import Foundation
import MediaModel

/// How commands find and read presets; the decoding itself is `PresetLoader`'s.
extension PresetFile {
    /// The path an option gives, else `Presets/<fileName>` when the working directory has one.
    static func path(option: String?) -> String? {
        let shipped = "Presets/" + fileName
        return option ?? (FileManager.default.fileExists(atPath: shipped) ? shipped : nil)
    }

    /// Reads the preset at `path`.
    /// - Throws: `PresetError`, when the file cannot be read or `PresetLoader` refuses it.
    static func load(from path: String) throws(PresetError) -> Self {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw PresetError.unreadable(file: path, reason: error.localizedDescription)
        }
        return try PresetLoader.decode(Self.self, from: bytes, file: path)
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
