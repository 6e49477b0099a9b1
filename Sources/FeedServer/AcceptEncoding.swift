/// `Accept-Encoding` (RFC 9110 §12.5.3), for the one coding Reel sends: whether gzip is acceptable. `gzip` or
/// `x-gzip` with a q-value above 0 is; so is `*` above 0 unless gzip itself is refused with `q=0`.
package enum AcceptEncoding {
    /// Read as bytes: a Unicode prepended mark before a comma makes one Character of the two, which hid the list's
    /// split (found by the accept-encoding fuzz target).
    package static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var gzip: Double?
        var wildcard: Double?
        for item in Array(header.utf8).split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
            let parts = item.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
            let coding = parts.first.map { Self.text(trimmed: $0) } ?? ""
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: UInt8(ascii: "="), maxSplits: 1).map { Self.text(trimmed: $0) }
                if pair.count == 2, pair[0] == "q", let value = Double(pair[1]), (0...1).contains(value) {
                    quality = value
                }
            }
            switch coding {
            case "gzip", "x-gzip": gzip = max(gzip ?? 0, quality)
            case "*": wildcard = quality
            default: break
            }
        }
        if let gzip { return gzip > 0 }
        return (wildcard ?? 0) > 0
    }

    /// The bytes without spaces and tabs at either end, lowercased.
    private static func text(trimmed bytes: ArraySlice<UInt8>) -> String {
        var slice = bytes
        while let first = slice.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { slice.removeFirst() }
        while let last = slice.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { slice.removeLast() }
        return String(decoding: slice, as: UTF8.self).lowercased()
    }
}
