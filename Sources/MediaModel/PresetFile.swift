/// A type read from one JSON file under `Presets/`, through `PresetLoader`.
///
/// Declare `CodingKeys` as `CaseIterable` on the type and on every type nested in it, so an unknown key's error can
/// list the keys allowed in its place.
public protocol PresetFile: Codable, Sendable {
    /// The file's name under `Presets/`, e.g. `ladder.json`.
    static var fileName: String { get }
    /// The built-in values, which a file overrides key by key.
    static var `default`: Self { get }
    /// Records every value the JSON types cannot rule out: sizes that must be positive, ranges, rules across keys.
    func validate(_ check: inout PresetCheck)
}
