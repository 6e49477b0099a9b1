/// The one way every file under `Presets/` is read: laid over the type's defaults, decoded strictly, then checked.
///
/// Pure: the caller reads the file and passes its bytes and name. A key the type does not have is an error at any
/// depth, naming the file, the key's path (`rungs[1].bitrat`) and the keys allowed there; so is a value of the wrong
/// type and a value a rule of the type refuses. A key the file leaves out keeps its default: objects merge key by
/// key, while a list (such as `rungs`) and every other value replace the default whole.
public enum PresetLoader {
    /// Decodes one preset file.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the name or path the bytes came from, quoted in errors.
    /// - Throws: `PresetError` (`.malformed`, `.unknownKey`, `.missingKey`, `.wrongType` or `.invalidValue`).
    public static func decode<Preset: PresetFile>(
        _ type: Preset.Type, from bytes: [UInt8], file: String
    ) throws(PresetError) -> Preset {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: bytes)
        } catch {
            throw PresetError(file: file, kind: .malformed, message: "not valid JSON: \(error)")
        }
        guard case .object = document else {
            throw PresetError(file: file, kind: .wrongType, message: "expected an object, found \(document.kind)")
        }
        let defaults: JSONValue
        do {
            defaults = try JSONValue(encoding: Preset.default)
        } catch {
            preconditionFailure("the built-in \(Preset.self) does not encode: \(error)")
        }
        let preset: Preset
        do {
            preset = try PresetDecoder.decode(Preset.self, from: defaults.merging(document), at: [])
        } catch let error as DecodingError {
            throw PresetError(file: file, decoding: error)
        } catch {
            throw PresetError(file: file, kind: .invalidValue, message: "\(error)")
        }
        var check = PresetCheck()
        preset.validate(&check)
        if let problem = check.problems.first {
            throw PresetError(file: file, kind: .invalidValue, keyPath: problem.keyPath, message: problem.message)
        }
        return preset
    }
}
