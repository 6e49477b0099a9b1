internal import FeedServer

/// `Reel-Session` on `POST /v1/events`: a value is accepted only as a token the server's key signed, unexpired, and
/// then names the session and expiry that issuing them again with the key gives; changing any one character of an
/// accepted token gets it refused. Anything else is refused as malformed, forged or expired.
enum SessionTokenContract {
    /// The fixed key the corpus tokens are signed with (Fuzz/Corpus/session-token).
    static let keys = ViewerSessionKeys(keys: [Array(repeating: 0x5A, count: 32)])
    /// The fuzzing "now": the corpus has tokens that expire before it and after it.
    static let now: Int64 = 1_800_000_000
    static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    static let target = FuzzTarget(
        name: "session-token",
        contract:
            "only a token the key signed, unexpired, is accepted; it reissues the same; one character changed is refused"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        let text = String(decoding: bytes, as: UTF8.self)
        let token: ViewerSessionToken
        do throws(ViewerSessionToken.Refusal) {
            token = try ViewerSessionToken.verify(text, keys: keys, now: now)
        } catch {
            return
        }
        try expect(token.expiresAt > now, "\(text.debugDescription) was accepted after it expired")
        try expect(
            token.session.count == 32
                && token.session.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) },
            "\(text.debugDescription) named the session \(token.session.debugDescription)")
        let again = ViewerSessionToken.issue(keys: keys, expiresAt: token.expiresAt, session: token.sessionBytes)
        try expect(
            again.session == token.session
                && (try? ViewerSessionToken.verify(again.text, keys: keys, now: now)) == again,
            "\(text.debugDescription), issued again, did not read back")
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            guard let position = urlAlphabet.firstIndex(of: character) else { continue }
            var changed = characters
            changed[index] = urlAlphabet[(position + 1 + index % 63) % urlAlphabet.count]
            let forged = String(changed)
            try expect(
                (try? ViewerSessionToken.verify(forged, keys: keys, now: now)) == nil,
                "\(forged.debugDescription), one character off an accepted token, was accepted")
        }
    }
}
