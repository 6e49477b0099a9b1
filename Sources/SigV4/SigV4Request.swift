/// One HTTP request as SigV4 signs it. Nothing here is percent-encoded yet: the signer encodes the path and the
/// query by S3's rules, and the client sends the same encoded forms (`encodedPath`, `encodedQuery`).
package struct SigV4Request: Sendable {
    package var method: String
    /// The path as the object key gives it, starting with `/`.
    package var path: String
    package var query: [(name: String, value: String)]
    /// The headers to sign; `host` must be among them.
    package var headers: [(name: String, value: String)]

    package init(
        method: String, path: String, query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)]
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// The path as sent and as signed: each byte outside the unreserved set percent-encoded once, `/` kept (S3 does
    /// not normalise paths, so `a//b` and `./` stay as they are).
    package var encodedPath: String { URIEncoding.encode(path.isEmpty ? "/" : path, keepingSlashes: true) }

    /// The query as sent and as signed: names and values encoded, sorted by name and then value.
    package var encodedQuery: String { CanonicalRequest.query(query) }
}
