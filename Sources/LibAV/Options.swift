internal import CFFmpeg

/// An owned `AVDictionary` of libav options. Leftover keys after an open are options libav did not know.
package struct Options: Sendable {
    package var entries: [(String, String)]

    package init(_ entries: [(String, String)] = []) { self.entries = entries }

    package mutating func set(_ key: String, _ value: String) { entries.append((key, value)) }

    /// Builds the C dictionary, runs `body` with it, and reports keys libav left unused.
    func withDictionary<R>(
        _ body: (inout OpaquePointer?) throws(AVError) -> R
    ) throws(AVError) -> (result: R, unused: [String]) {
        var dictionary: OpaquePointer? = nil
        defer { av_dict_free(&dictionary) }
        for (key, value) in entries {
            try check(av_dict_set(&dictionary, key, value, 0), "av_dict_set(\(key))")
        }
        let result = try body(&dictionary)
        var unused: [String] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            unused.append(String(cString: next.pointee.key))
            entry = next
        }
        return (result, unused)
    }
}

/// Reads an `AVDictionary` into Swift pairs.
func dictionaryEntries(_ dictionary: OpaquePointer?) -> [String: String] {
    var out: [String: String] = [:]
    var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
    while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
        out[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
        entry = next
    }
    return out
}
