/// The canonical request of SigV4 (AWS's "Create a canonical request"), built by pure functions so each rule is
/// tested on its own.
package enum CanonicalRequest {
    /// `method\npath\nquery\nheaders\n\nsigned-headers\npayload-hash`.
    package static func text(_ request: SigV4Request, payloadHash: String) -> (text: String, signedHeaders: String) {
        let (headerLines, signed) = headers(request.headers)
        let text = [request.method, request.encodedPath, request.encodedQuery, headerLines, signed, payloadHash]
            .joined(separator: "\n")
        return (text, signed)
    }

    /// Names and values percent-encoded, sorted by encoded name then value, `name=value` joined by `&` (an empty
    /// value keeps its `=`).
    package static func query(_ items: [(name: String, value: String)]) -> String {
        let encoded: [(name: String, value: String)] = items.map {
            (URIEncoding.encode($0.name), URIEncoding.encode($0.value))
        }
        let sorted = encoded.sorted { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
        return sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
    }

    /// Header lines (`name:value\n` each, names lower-cased and sorted, values trimmed with inner runs of spaces
    /// made one, repeated names joined by commas) and the `;`-joined names.
    package static func headers(_ headers: [(name: String, value: String)]) -> (lines: String, signed: String) {
        var values: [String: [String]] = [:]
        for (name, value) in headers {
            values[name.lowercased(), default: []].append(normalise(value))
        }
        let names = values.keys.sorted()
        let lines = names.map { $0 + ":" + values[$0]!.joined(separator: ",") + "\n" }.joined()
        return (lines, names.joined(separator: ";"))
    }

    /// Trims spaces and tabs at both ends and turns each run of them inside into one space.
    static func normalise(_ value: String) -> String {
        var out = ""
        var pendingSpace = false
        for character in value {
            if character == " " || character == "\t" {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(character)
            }
        }
        return out
    }
}
