/// Where an S3-compatible store answers: `http` or `https`, a host and an optional port. Parsed from a plain URL
/// (`http://127.0.0.1:8333`), with no path, query, user or fragment, so nothing else can ride along.
package struct S3Endpoint: Sendable, Equatable {
    package let secure: Bool
    package let host: String
    package let port: Int?

    package init(secure: Bool, host: String, port: Int?) {
        self.secure = secure
        self.host = host
        self.port = port
    }

    /// - Throws: `ObjectStoreError` `.badLocation` naming what is wrong with `url`.
    package init(parsing url: String) throws(ObjectStoreError) {
        let rest: Substring
        if url.hasPrefix("https://") {
            secure = true
            rest = url.dropFirst(8)
        } else if url.hasPrefix("http://") {
            secure = false
            rest = url.dropFirst(7)
        } else {
            throw ObjectStoreError(.badLocation, "endpoint '\(url)' must start with http:// or https://")
        }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        guard !authority.isEmpty else { throw ObjectStoreError(.badLocation, "endpoint '\(url)' has no host") }
        guard !authority.contains(where: { "/?#@ \\".contains($0) }) else {
            throw ObjectStoreError(
                .badLocation, "endpoint '\(url)' must be scheme://host[:port] only: no path, query, user or spaces")
        }
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            guard let port = Int(authority[authority.index(after: colon)...]), (1...65_535).contains(port) else {
                throw ObjectStoreError(.badLocation, "endpoint '\(url)' has a port outside 1...65535")
            }
            host = String(authority[..<colon])
            self.port = port
        } else {
            host = String(authority)
            port = nil
        }
        guard !host.isEmpty else { throw ObjectStoreError(.badLocation, "endpoint '\(url)' has no host") }
    }

    /// AWS's regional endpoint.
    package static func aws(region: String) -> S3Endpoint {
        S3Endpoint(secure: true, host: "s3.\(region).amazonaws.com", port: nil)
    }

    /// `host` or `host:port` as the Host header carries it (the default port of the scheme is left out).
    package func authority(prefixedWith bucket: String? = nil) -> String {
        let name = bucket.map { $0 + "." + host } ?? host
        guard let port, port != (secure ? 443 : 80) else { return name }
        return name + ":" + String(port)
    }

    package var scheme: String { secure ? "https" : "http" }

    package var description: String { scheme + "://" + authority() }
}
