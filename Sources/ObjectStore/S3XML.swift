/// Reads the few flat answers S3 sends as XML (listings, multipart ids, errors) by element name. S3's documents
/// never nest an element inside one of the same name, and Reel reads no attributes, so a scan for `<Name>` and
/// `</Name>` is exact for them, without FoundationXML and its libxml2 in the static binary. Pure.
package enum S3XML {
    /// The decoded text of each `<name>...</name>` in `xml`, in order; `<name/>` gives "".
    package static func values(_ name: String, in xml: Substring) -> [String] {
        blocks(name, in: xml).map { decodeEntities($0) }
    }

    /// The first element's decoded text, or nil.
    package static func value(_ name: String, in xml: Substring) -> String? {
        blocks(name, in: xml).first.map { decodeEntities($0) }
    }

    /// The raw inner text of each `<name>...</name>` (entities still encoded), for reading children of each block.
    package static func blocks(_ name: String, in xml: Substring) -> [Substring] {
        let open = "<" + name + ">"
        let empty = "<" + name + "/>"
        let close = "</" + name + ">"
        var found: [Substring] = []
        var rest = xml
        while true {
            let nextOpen = rest.firstRange(of: open)
            if let selfClosing = rest.firstRange(of: empty),
                nextOpen.map({ selfClosing.lowerBound < $0.lowerBound }) ?? true
            {
                found.append("")
                rest = rest[selfClosing.upperBound...]
                continue
            }
            guard let start = nextOpen, let end = rest[start.upperBound...].firstRange(of: close) else { break }
            found.append(rest[start.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return found
    }

    /// XML's five named entities and numeric character references decoded; an unknown entity is kept as it is.
    package static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "&", let semicolon = text[index...].firstIndex(of: ";"),
                text.distance(from: index, to: semicolon) <= 10
            else {
                out.append(character)
                index = text.index(after: index)
                continue
            }
            let entity = text[text.index(after: index)..<semicolon]
            if let decoded = decode(entity) {
                out.unicodeScalars.append(decoded)
            } else {
                out += text[index...semicolon]
            }
            index = text.index(after: semicolon)
        }
        return out
    }

    static func decode(_ entity: Substring) -> Unicode.Scalar? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard entity.hasPrefix("#") else { return nil }
            let digits = entity.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init)
        }
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, for request bodies.
    package static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
