internal import MediaModel

/// Reel's own JSON parser (`JSONValue(parsing:)`, behind every preset and `POST /v1/events`): a document that parses,
/// written again, parses to the same value; the fast reading of a list of flat objects agrees with the whole parse,
/// member for member, and takes every such list; an error points inside the text.
enum JSONContract {
    static let target = FuzzTarget(
        name: "json", contract: "a parsed document round-trips; the flat-object fast path agrees with the full parse"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        let flat = JSONValue.flatObjects(parsing: bytes)
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONValue(parsing: bytes)
        } catch {
            try expect(flat == nil, "the fast path read \(flat ?? []) from text the parser refused: \(error)")
            try expect(
                (0...bytes.count).contains(error.offset) && error.line >= 1 && error.column >= 1,
                "the error \(error) points outside the \(bytes.count) bytes")
            return
        }
        let text = JSONText.write(value)
        let again: JSONValue
        do { again = try JSONValue(parsing: Array(text.utf8)) } catch {
            throw ContractBroken("\(text.prefix(200)) (written from a parsed document) does not parse: \(error)")
        }
        try expect(JSONText.same(value, again), "\(text.prefix(200)) parsed to a different value")
        // A list of objects whose values are all scalars is what the fast path is for; it must take every such list.
        var isFlatList = false
        if case let .array(items) = value {
            isFlatList = items.allSatisfy { item in
                guard case let .object(members) = item else { return false }
                return members.values.allSatisfy { member in
                    switch member {
                    case .array, .object: false
                    default: true
                    }
                }
            }
        }
        guard let flat else {
            try expect(!isFlatList, "the fast path refused a list of flat objects: \(text.prefix(200))")
            return
        }
        guard case let .array(items) = value, items.count == flat.count else {
            throw ContractBroken("the fast path read \(flat.count) objects from \(text.prefix(200))")
        }
        for (item, members) in zip(items, flat) {
            let object = JSONValue.object(
                Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }))
            try expect(
                members.count == Set(members.map(\.key)).count && JSONText.same(item, object),
                "the fast path read \(members) where the parser read \(item)")
        }
    }
}
