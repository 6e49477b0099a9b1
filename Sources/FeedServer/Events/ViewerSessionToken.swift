internal import Crypto

/// A viewer session that this server (or one sharing its keys) issued: a random id and an expiry, signed with
/// HMAC-SHA256. `POST /v1/sessions` hands one out, and `POST /v1/events` takes a batch only with one in `Reel-Session`.
/// The events are stored under its session id, so a client can neither choose a session nor write into another's.
///
/// The text is base64url without padding of 57 bytes: a version byte (1), the 16-byte session id, the expiry as a
/// big-endian Int64 of Unix seconds, and the 32-byte MAC over a context label and the first 25 bytes.
package struct ViewerSessionToken: Sendable, Equatable {
    /// The session id as events store it: 32 lowercase hex digits.
    package let session: String
    /// When the token stops being accepted, in Unix seconds.
    package let expiresAt: Int64
    /// What the client sends back in `Reel-Session`.
    package let text: String
    /// The session id's 16 bytes, for a renewal of the same session.
    package let sessionBytes: [UInt8]

    package enum Refusal: Error, Sendable, Equatable {
        /// Not a token's shape: the wrong length, alphabet or version.
        case malformed
        /// The right shape, but no key of ours signed it.
        case forged
        case expired
    }

    static let version: UInt8 = 1
    static let sessionBytesCount = 16
    static let signedCount = 1 + sessionBytesCount + 8
    static let macCount = 32
    static let textCount = ((signedCount + macCount) * 4 + 2) / 3
    /// Keeps a MAC for these sessions from meaning anything in another use of the same key.
    private static let context = Array("reel viewer session\n".utf8)

    /// A new session (or, with `session`, the same one again with a later expiry), signed with the first key.
    package static func issue(
        keys: ViewerSessionKeys, expiresAt: Int64, session: [UInt8]? = nil
    ) -> ViewerSessionToken {
        let id = session ?? newSessionID()
        precondition(id.count == sessionBytesCount, "a session id is 16 bytes")
        var signed = [version] + id
        withUnsafeBytes(of: expiresAt.bigEndian) { signed += $0 }
        let mac = HMAC<SHA256>.authenticationCode(for: context + signed, using: SymmetricKey(data: keys.keys[0]))
        return ViewerSessionToken(
            session: ViewerSessionKeys.hex(id), expiresAt: expiresAt, text: Base64URL.encode(signed + Array(mac)),
            sessionBytes: id)
    }

    /// The session `text` names, if one of `keys` signed it and it has not expired at `now` (Unix seconds).
    /// - Throws: `Refusal`, which says which of the three it is.
    package static func verify(
        _ text: some StringProtocol, keys: ViewerSessionKeys, now: Int64
    ) throws(Refusal) -> ViewerSessionToken {
        guard text.utf8.count == textCount, let bytes = Base64URL.decode(text),
            bytes.count == signedCount + macCount, bytes[0] == version
        else { throw .malformed }
        let signed = bytes[..<signedCount]
        let mac = bytes[signedCount...]
        let message = context + signed
        guard
            keys.keys.contains(where: {
                HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: message, using: SymmetricKey(data: $0))
            })
        else { throw .forged }
        let expiresAt = bytes[(1 + sessionBytesCount)..<signedCount].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard now < expiresAt else { throw .expired }
        let id = Array(bytes[1..<(1 + sessionBytesCount)])
        return ViewerSessionToken(
            session: ViewerSessionKeys.hex(id), expiresAt: expiresAt, text: String(text), sessionBytes: id)
    }

    static func newSessionID() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<sessionBytesCount).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
