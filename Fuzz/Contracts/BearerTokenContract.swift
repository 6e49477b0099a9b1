internal import FeedServer

/// `Authorization: Bearer ...`: a token read from a header is non-empty, at most 512 characters, without spaces at
/// its ends, and read back the same from `Bearer <token>`.
enum BearerTokenContract {
    static let target = FuzzTarget(
        name: "bearer", contract: "a token is 1-512 characters, trimmed, and reads back from Bearer <token>"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        let header = String(decoding: bytes, as: UTF8.self)
        guard let token = BearerToken.fromAuthorization(header) else { return }
        try expect(
            !token.isEmpty && token.count <= 512 && token.first != " " && token.last != " ",
            "\(header.debugDescription) gave the token \(token.debugDescription)")
        try expect(
            BearerToken.fromAuthorization("Bearer " + token) == token,
            "the token \(token.debugDescription) did not read back")
    }
}
