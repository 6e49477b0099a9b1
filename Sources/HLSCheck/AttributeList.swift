/// An HLS attribute list (RFC 8216 §4.2): `NAME=value` pairs separated by commas, where a quoted string may hold
/// commas. Values are kept as written; the accessors say whether a value had the type its attribute requires.
struct AttributeList: Equatable {
    private(set) var values: [String: String] = [:]
    /// Names that appeared more than once (RFC 8216 §4.2: a list MUST NOT repeat a name).
    private(set) var duplicates: [String] = []

    init(_ text: Substring) {
        var index = text.startIndex
        while index < text.endIndex {
            guard let equals = text[index...].firstIndex(of: "=") else { break }
            let name = String(text[index..<equals]).trimmingSpaces()
            var end = text.index(after: equals)
            if end < text.endIndex, text[end] == "\"" {
                end =
                    text[text.index(after: end)...].firstIndex(of: "\"").map { text.index(after: $0) } ?? text.endIndex
            }
            end = text[end...].firstIndex(of: ",") ?? text.endIndex
            let value = String(text[text.index(after: equals)..<end])
            if values[name] != nil { duplicates.append(name) }
            values[name] = value
            index = end < text.endIndex ? text.index(after: end) : end
        }
    }

    func has(_ name: String) -> Bool { values[name] != nil }

    /// A quoted-string value without its quotes; nil when absent or not quoted.
    func quoted(_ name: String) -> String? {
        guard let value = values[name], value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else {
            return nil
        }
        return String(value.dropFirst().dropLast())
    }

    /// The value whether or not it was quoted.
    func text(_ name: String) -> String? { quoted(name) ?? values[name] }

    func integer(_ name: String) -> Int? { values[name].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil } }

    func decimal(_ name: String) -> Double? { values[name].flatMap { Double(playlistText: $0) } }

    /// `WIDTHxHEIGHT` as a decimal-resolution.
    func resolution(_ name: String) -> (width: Int, height: Int)? {
        guard let parts = values[name]?.split(separator: "x"), parts.count == 2,
            let width = Int(parts[0]), let height = Int(parts[1])
        else { return nil }
        return (width, height)
    }
}

extension String {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while slice.first == " " || slice.first == "\t" { slice.removeFirst() }
        while slice.last == " " || slice.last == "\t" || slice.last == "\r" { slice.removeLast() }
        return String(slice)
    }
}
