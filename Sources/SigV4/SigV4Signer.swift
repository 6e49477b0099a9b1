internal import Crypto

/// AWS Signature Version 4 (`AWS4-HMAC-SHA256`) for one region and service: signed headers for requests Reel
/// makes, presigned query URLs for redirects. Pure: the caller supplies the time and the payload's hash.
package struct SigV4Signer: Sendable {
    package let credentials: SigV4Credentials
    package let region: String
    package let service: String

    /// The payload hash a presigned URL (and a streamed body not hashed first) signs.
    package static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// SHA-256 of no bytes.
    package static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// A presigned URL lives at most 7 days.
    package static let maxExpirySeconds = 604_800

    package init(credentials: SigV4Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// Lower-case hex SHA-256 of `bytes`, as `x-amz-content-sha256` and the canonical request take it.
    package static func payloadHash(_ bytes: [UInt8]) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// The same, for bytes in place (a part of a multipart upload, without copying it).
    package static func payloadHash(_ bytes: UnsafeRawBufferPointer) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// The headers to send with `request`: `x-amz-date`, `x-amz-content-sha256` (S3 signs it), the session token
    /// when there is one, and `Authorization`. The request's own headers are sent as they are.
    /// - Throws: `SigV4Error` `.missingHost` when `request` has no `host` header.
    package func signedHeaders(
        for request: SigV4Request, payloadHash: String, date: AmzDate
    ) throws(SigV4Error) -> [(name: String, value: String)] {
        guard request.headers.contains(where: { $0.name.lowercased() == "host" }) else {
            throw SigV4Error(.missingHost, "a signed request needs its host header")
        }
        var added: [(name: String, value: String)] = [("x-amz-date", date.timestamp)]
        if service == "s3" { added.append(("x-amz-content-sha256", payloadHash)) }
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }
        var signing = request
        signing.headers += added
        let (canonical, signed) = CanonicalRequest.text(signing, payloadHash: payloadHash)
        let signature = sign(canonical: canonical, date: date)
        added.append(
            (
                "Authorization",
                "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope(date)), SignedHeaders=\(signed), "
                    + "Signature=\(signature)"
            ))
        return added
    }

    /// The query of a presigned URL for `request` (its own query first, then the `X-Amz-*` parameters and the
    /// signature), valid for `expires` seconds from `date`. The body is not signed (`UNSIGNED-PAYLOAD`).
    /// - Throws: `SigV4Error` when `expires` is outside 1...604800 or `request` has no `host` header.
    package func presignedQuery(
        for request: SigV4Request, expires: Int, date: AmzDate
    ) throws(SigV4Error) -> String {
        guard (1...Self.maxExpirySeconds).contains(expires) else {
            throw SigV4Error(
                .expiresOutOfRange, "a presigned URL expires after 1 to \(Self.maxExpirySeconds) s, not \(expires) s")
        }
        guard request.headers.contains(where: { $0.name.lowercased() == "host" }) else {
            throw SigV4Error(.missingHost, "a presigned request needs its host header")
        }
        var signing = request
        signing.query += [
            ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"),
            ("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope(date))"),
            ("X-Amz-Date", date.timestamp),
            ("X-Amz-Expires", String(expires)),
            ("X-Amz-SignedHeaders", CanonicalRequest.headers(request.headers).signed),
        ]
        if let token = credentials.sessionToken { signing.query.append(("X-Amz-Security-Token", token)) }
        let (canonical, _) = CanonicalRequest.text(signing, payloadHash: Self.unsignedPayload)
        let signature = sign(canonical: canonical, date: date)
        return signing.encodedQuery + "&X-Amz-Signature=" + signature
    }

    /// `day/region/service/aws4_request`.
    func scope(_ date: AmzDate) -> String { "\(date.day)/\(region)/\(service)/aws4_request" }

    /// The hex signature of a canonical request's string to sign.
    func sign(canonical: String, date: AmzDate) -> String {
        let stringToSign = [
            "AWS4-HMAC-SHA256", date.timestamp, scope(date), Self.hex(SHA256.hash(data: Array(canonical.utf8))),
        ].joined(separator: "\n")
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Array(stringToSign.utf8), using: signingKey(date)))
    }

    /// HMAC chain from `AWS4` + secret through the day, region, service and `aws4_request`.
    func signingKey(_ date: AmzDate) -> SymmetricKey {
        var key = SymmetricKey(data: Array(("AWS4" + credentials.secretAccessKey).utf8))
        for part in [String(date.day), region, service, "aws4_request"] {
            key = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key))
        }
        return key
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
