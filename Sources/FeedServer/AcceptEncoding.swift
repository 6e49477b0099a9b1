/// `Accept-Encoding` (RFC 9110 §12.5.3), for the one coding Reel sends: whether gzip is acceptable. `gzip` or
/// `x-gzip` with a q-value above 0 is; so is `*` above 0 unless gzip itself is refused with `q=0`.
enum AcceptEncoding {
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var gzip: Double?
        var wildcard: Double?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";")
            let coding = parts.first.map { $0.trimmingPrefixAndSuffixSpaces.lowercased() } ?? ""
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingPrefixAndSuffixSpaces.lowercased()
                }
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
}
