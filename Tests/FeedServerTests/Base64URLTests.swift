import Foundation
import Testing

@testable import FeedServer

/// The cursor's base64url codec against Foundation's base64 on every length up to 64 and on hostile input.
@Suite(.timeLimit(.minutes(5))) struct Base64URLTests {
    static func foundation(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }

    @Test func encodesAsFoundationDoesAndDecodesBack() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...64 {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let text = Base64URL.encode(bytes)
                #expect(text == Self.foundation(bytes))
                #expect(Base64URL.decode(text) == bytes)
                // The standard alphabet with padding, as old cursors may arrive.
                #expect(Base64URL.decode(Data(bytes).base64EncodedString()) == bytes)
            }
        }
    }

    @Test(arguments: ["A", "AAAAA", "AB=C", "AB===", "A===", "AB*C", "AB C", "AB\u{0}C", "ÄBCD", "AB=", "ABC=="])
    func refusesWhatIsNotBase64(text: String) {
        #expect(Base64URL.decode(text) == nil, "\(text)")
    }

    @Test func cursorsRoundTripAndForgeriesAreRefused() throws {
        for bad in [
            "", "abc", "v000000123", "!!!!", String(repeating: "A", count: 300),
            Data("v2:1:x".utf8).base64EncodedString(),
        ] {
            #expect(throws: FeedCursor.Malformed.self) { _ = try FeedCursor(decoding: bad) }
        }
        #expect(!FeedCursor(publishedAt: 1_700_000_123, id: "v000000123").encoded.contains("v000000123"))
        let cursor = FeedCursor(publishedAt: 1_700_000_123_456, id: "v000000123")
        #expect(try FeedCursor(decoding: cursor.encoded) == cursor)
        #expect(throws: FeedCursor.Malformed.self) { try FeedCursor(decoding: Base64URL.encode("v2:1:x".utf8)) }
        #expect(throws: FeedCursor.Malformed.self) { try FeedCursor(decoding: Base64URL.encode([0xFF, 0xFE, 0x3A])) }
        #expect(throws: FeedCursor.Malformed.self) { try FeedCursor(decoding: String(repeating: "A", count: 300)) }
    }
}
