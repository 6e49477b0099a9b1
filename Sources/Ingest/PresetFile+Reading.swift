internal import FileSystem
package import MediaModel

extension PresetFile {
    /// Reads and strictly decodes the preset at `path` (the CLI at start, each job process again).
    /// - Throws: `PresetError`, when the file cannot be read or `PresetLoader` refuses it.
    package static func load(from path: String) throws(PresetError) -> Self {
        let bytes: [UInt8]
        do { bytes = try ReadOnlyFile.contents(of: path, limit: 1 << 20) } catch {
            throw PresetError.unreadable(file: path, reason: error.description)
        }
        return try PresetLoader.decode(Self.self, from: bytes, file: path)
    }
}
