import Foundation

/// Stable JSON for machine readers: sorted keys, no escaped slashes.
enum JSONOutput {
    static func string(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func print(_ value: some Encodable) { Swift.print(string(value)) }
}
