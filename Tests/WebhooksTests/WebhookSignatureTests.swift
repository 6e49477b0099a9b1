import Foundation
import Testing

@testable import Webhooks

/// The signature a receiver checks. A receiver written apart from Reel (scripts/webhook-receiver.py, Python's hmac)
/// checks real deliveries in the end-to-end tests; these pin down the header's parts.
@Suite(.timeLimit(.minutes(1))) struct WebhookSignatureTests {
    let secret = "whsec_test"
    let body = #"{"id":"evt_1","type":"video.published"}"#

    @Test func aSignatureVerifiesOnlyForItsSecretBodyAndTime() {
        let value = WebhookSignature.value(secret: secret, timestamp: 1_000, body: body)
        #expect(value.hasPrefix("t=1000,v1=") && value.count == "t=1000,v1=".count + 64)
        #expect(WebhookSignature.verify(value, secret: secret, body: body, now: 1_000))
        #expect(WebhookSignature.verify(value, secret: secret, body: body, now: 1_300))
        #expect(!WebhookSignature.verify(value, secret: secret, body: body, now: 1_301), "too old: a replay")
        #expect(!WebhookSignature.verify(value, secret: secret, body: body, now: 699), "from the future")
        #expect(!WebhookSignature.verify(value, secret: "whsec_other", body: body, now: 1_000))
        #expect(!WebhookSignature.verify(value, secret: secret, body: body + " ", now: 1_000))
        let moved = value.replacingOccurrences(of: "t=1000", with: "t=1001")
        #expect(!WebhookSignature.verify(moved, secret: secret, body: body, now: 1_000), "the time is signed")
    }

    @Test func anyOfSeveralV1EntriesMayMatchAndGarbageNeverDoes() {
        let good = WebhookSignature.value(secret: secret, timestamp: 5, body: body)
        let mac = String(good.split(separator: "=").last ?? "")
        #expect(
            WebhookSignature.verify(
                "t=5,v1=\(String(repeating: "0", count: 64)),v1=\(mac)", secret: secret, body: body, now: 5))
        for garbage in [
            "", "t=5", "v1=\(mac)", "t=x,v1=\(mac)", "t=5,v1=", "t=5,v1=\(mac.dropLast())", "t=5;v1=\(mac)",
        ] {
            #expect(!WebhookSignature.verify(garbage, secret: secret, body: body, now: 5), "\(garbage)")
        }
    }
}
