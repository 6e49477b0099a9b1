/// `--library s3://bucket/prefix?endpoint=URL&region=NAME&path_style=true|false`: which bucket, under which key prefix,
/// at which store. No credentials ever go here; they come from the environment or a credentials file.
///
/// Without `endpoint` the store is AWS's regional endpoint with virtual-hosted addressing; with one it is that
/// store with path-style addressing (what SeaweedFS, MinIO and most self-hosted stores expect) unless `path_style`
/// says otherwise.
package struct S3Location: Sendable, Equatable, CustomStringConvertible {
    package let bucket: String
    /// Key prefix without leading or trailing `/`; empty for the bucket's root.
    package let prefix: String
    package let endpoint: S3Endpoint
    package let region: String
    package let pathStyle: Bool

    package static let defaultRegion = "us-east-1"

    package init(bucket: String, prefix: String = "", endpoint: S3Endpoint, region: String, pathStyle: Bool) {
        self.bucket = bucket
        self.prefix = prefix
        self.endpoint = endpoint
        self.region = region
        self.pathStyle = pathStyle
    }

    /// Whether `text` names object storage rather than a directory.
    package static func isS3(_ text: String) -> Bool { text.hasPrefix("s3://") }

    /// Parses `s3://bucket[/prefix][?endpoint=...&region=...&path_style=...]`. `endpoint`, `region` and `pathStyle`
    /// (from flags) win over the query.
    /// - Throws: `ObjectStoreError` `.badLocation` naming the part that is wrong.
    package init(
        parsing text: String, endpoint endpointFlag: String? = nil, region regionFlag: String? = nil,
        pathStyle pathStyleFlag: Bool? = nil
    ) throws(ObjectStoreError) {
        guard Self.isS3(text) else {
            throw ObjectStoreError(.badLocation, "'\(text)' is not an s3:// URL")
        }
        let body = text.dropFirst(5)
        let (place, query) = Self.split(body, at: "?")
        let (bucket, rawPrefix) = Self.split(place, at: "/")
        if let problem = Self.bucketProblem(String(bucket)) {
            throw ObjectStoreError(.badLocation, "bucket '\(bucket)' in '\(text)': \(problem)")
        }
        var prefix = String(rawPrefix ?? "")
        while prefix.hasSuffix("/") { prefix.removeLast() }
        if !prefix.isEmpty, let problem = ObjectKey.problem(prefix) {
            throw ObjectStoreError(.badLocation, "key prefix '\(prefix)' in '\(text)': \(problem)")
        }
        var endpointText = endpointFlag
        var region = regionFlag
        var pathStyle = pathStyleFlag
        for pair in (query ?? "").split(separator: "&") {
            let (rawName, rawValue) = Self.split(pair, at: "=")
            guard let name = String(rawName).removingPercentEscapes(),
                let value = String(rawValue ?? "").removingPercentEscapes()
            else { throw ObjectStoreError(.badLocation, "bad percent escape in the query of '\(text)'") }
            switch name {
            case "endpoint": endpointText = endpointText ?? value
            case "region": region = region ?? value
            case "path_style":
                guard value == "true" || value == "false" else {
                    throw ObjectStoreError(.badLocation, "path_style must be true or false, not '\(value)'")
                }
                pathStyle = pathStyle ?? (value == "true")
            default:
                throw ObjectStoreError(
                    .badLocation,
                    "unknown setting '\(name)' in '\(text)' (known: endpoint, region, path_style; credentials never go in the URL)"
                )
            }
        }
        let regionName = region ?? Self.defaultRegion
        guard !regionName.isEmpty, regionName.utf8.allSatisfy({ Self.isRegionByte($0) }) else {
            throw ObjectStoreError(.badLocation, "region '\(regionName)' must be lowercase letters, digits and '-'")
        }
        self.bucket = String(bucket)
        self.prefix = prefix
        self.region = regionName
        if let endpointText {
            endpoint = try S3Endpoint(parsing: endpointText)
            self.pathStyle = pathStyle ?? true
        } else {
            endpoint = .aws(region: regionName)
            self.pathStyle = pathStyle ?? false
        }
    }

    /// The URL back, with its settings (it holds no secret, so it may be logged).
    package var description: String {
        "s3://\(bucket)\(prefix.isEmpty ? "" : "/" + prefix)?endpoint=\(endpoint.description)&region=\(region)"
            + "&path_style=\(pathStyle)"
    }

    /// The full key of `key` under this location's prefix.
    package func fullKey(_ key: ObjectKey) -> String { key.under(prefix) }

    /// What is wrong with `name` as a bucket name (S3's rules: 3 to 63 of `a-z 0-9 . -`, starting and ending with a
    /// letter or digit), or nil.
    static func bucketProblem(_ name: String) -> String? {
        guard (3...63).contains(name.utf8.count) else { return "a bucket name has 3 to 63 characters" }
        guard name.utf8.allSatisfy({ isRegionByte($0) || $0 == UInt8(ascii: ".") }) else {
            return "a bucket name has only lowercase letters, digits, '.' and '-'"
        }
        guard let first = name.utf8.first, let last = name.utf8.last, isAlphanumeric(first), isAlphanumeric(last)
        else { return "a bucket name starts and ends with a letter or digit" }
        return nil
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    static func isRegionByte(_ byte: UInt8) -> Bool { isAlphanumeric(byte) || byte == UInt8(ascii: "-") }

    static func split(_ text: Substring, at separator: Character) -> (Substring, Substring?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (text[..<index], text[text.index(after: index)...])
    }
}

extension String {
    /// `%XY` escapes decoded as UTF-8, or nil when an escape is malformed or the bytes are not UTF-8. `+` stays `+`.
    func removingPercentEscapes() -> String? {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue)
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
