public import MediaModel
internal import Foundation

extension AdmissionLimits {
    /// Reads limits from a JSON file shaped like `Presets/limits.json`.
    /// - Throws: `LimitsFileError` naming the file and what was wrong with it.
    public static func load(from path: String) throws -> AdmissionLimits {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw LimitsFileError(path: path, message: "cannot read it (\(error.localizedDescription))")
        }
        do {
            return try JSONDecoder().decode(AdmissionLimits.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw LimitsFileError(path: path, message: "missing key \(key.stringValue)")
        } catch let DecodingError.typeMismatch(_, context) {
            throw LimitsFileError(path: path, message: "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
        } catch {
            throw LimitsFileError(path: path, message: "not valid limits JSON (\(error))")
        }
    }
}

/// A limits file that could not be used.
public struct LimitsFileError: Error, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "limits file \(path): \(message)" }
}
