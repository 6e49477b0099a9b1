import Testing

@testable import FeedServer

/// Session tokens: what `issue` signs, `verify` reads back, and nothing else passes: not a token of another key, not
/// one changed in any character, not one past its expiry. Keys rotate: every key of a file verifies, the first signs.
@Suite(.timeLimit(.minutes(1))) struct ViewerSessionTokenTests {
    let keys = ViewerSessionKeys.random()

    @Test func anIssuedTokenReadsBackItsSessionAndExpiry() throws {
        let token = ViewerSessionToken.issue(keys: keys, expiresAt: 2_000)
        #expect(token.text.count == 76 && token.text.allSatisfy { $0.isLetter || $0.isNumber || "-_".contains($0) })
        #expect(token.session.count == 32 && token.session.allSatisfy(\.isHexDigit))
        let read = try ViewerSessionToken.verify(token.text, keys: keys, now: 1_999)
        #expect(read == token)
        #expect(ViewerSessionToken.issue(keys: keys, expiresAt: 2_000).session != token.session)
        let renewed = ViewerSessionToken.issue(keys: keys, expiresAt: 9_000, session: token.sessionBytes)
        #expect(renewed.session == token.session && renewed.text != token.text)
    }

    @Test func aTokenIsRefusedFromItsExpiryOn() {
        let token = ViewerSessionToken.issue(keys: keys, expiresAt: 2_000)
        #expect(throws: ViewerSessionToken.Refusal.expired) {
            try ViewerSessionToken.verify(token.text, keys: keys, now: 2_000)
        }
    }

    @Test func everyOneCharacterChangeIsRefused() {
        let token = ViewerSessionToken.issue(keys: keys, expiresAt: 2_000).text
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for index in token.indices {
            for replacement in alphabet where replacement != token[index] {
                var changed = token
                changed.replaceSubrange(index...index, with: String(replacement))
                #expect(throws: ViewerSessionToken.Refusal.self) {
                    try ViewerSessionToken.verify(changed, keys: keys, now: 1_000)
                }
            }
        }
    }

    @Test(arguments: ["", "x", String(repeating: "A", count: 76), String(repeating: "é", count: 38)])
    func whatIsNotATokenIsMalformed(_ text: String) {
        #expect(throws: ViewerSessionToken.Refusal.malformed) {
            try ViewerSessionToken.verify(text, keys: keys, now: 0)
        }
    }

    @Test func aKeyFileRotatesTheFirstSignsAndEveryKeyVerifies() throws {
        let old = ViewerSessionKeys.random()
        let new = ViewerSessionKeys.random()
        let rotated = ViewerSessionKeys(keys: new.keys + old.keys)
        let fromOld = ViewerSessionToken.issue(keys: old, expiresAt: 2_000)
        #expect(try ViewerSessionToken.verify(fromOld.text, keys: rotated, now: 1_000).session == fromOld.session)
        let fromRotated = ViewerSessionToken.issue(keys: rotated, expiresAt: 2_000)
        #expect(try ViewerSessionToken.verify(fromRotated.text, keys: new, now: 1_000) == fromRotated)
        #expect(throws: ViewerSessionToken.Refusal.forged) {
            try ViewerSessionToken.verify(fromOld.text, keys: new, now: 1_000)
        }
    }

    @Test func aKeyFileIsHexKeysOnePerLine() throws {
        let first = String(repeating: "ab", count: 32)
        let second = String(repeating: "0F", count: 40)
        let text = "# rotated 2026-12-05\n\n  \(first)  \r\n\(second)\n"
        let keys = try ViewerSessionKeys(keyFile: Array(text.utf8))
        #expect(keys.keys == [Array(repeating: 0xAB, count: 32), Array(repeating: 0x0F, count: 40)])
        #expect(throws: ViewerSessionKeys.Failure.badLine(2)) {
            try ViewerSessionKeys(keyFile: Array("\(first)\n\(String(repeating: "ab", count: 31))\n".utf8))
        }
        #expect(throws: ViewerSessionKeys.Failure.badLine(1)) {
            try ViewerSessionKeys(keyFile: Array(String(repeating: "zz", count: 32).utf8))
        }
        #expect(throws: ViewerSessionKeys.Failure.noKey) { try ViewerSessionKeys(keyFile: Array("# none\n\n".utf8)) }
        let made = try ViewerSessionKeys(keyFile: ViewerSessionKeys.makeKeyFile())
        #expect(made.keys.count == 1 && made.keys[0].count == 32)
    }
}
