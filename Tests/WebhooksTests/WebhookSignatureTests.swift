import Catalog
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

/// A rotation: the header carries one `v1` per secret, and a receiver holding either verifies it.
@Suite(.timeLimit(.minutes(1))) struct WebhookSecretRotationTests {
    @Test func duringTheOverlapBothSecretsSignAndAfterItOnlyTheNewOne() {
        var endpoint = WebhookEndpoint(
            id: "whe_1", url: "https://example.com/", events: [.deleted], secret: "whsec_new",
            allowsPrivateAddresses: false, createdAt: 0, previousSecret: "whsec_old", previousSecretUntil: 10_000)
        #expect(endpoint.signingSecrets(now: 9_999) == ["whsec_new", "whsec_old"])
        #expect(endpoint.signingSecrets(now: 10_000) == ["whsec_new"])
        let body = #"{"id":"evt_2"}"#
        let both = WebhookSignature.value(secrets: endpoint.signingSecrets(now: 5_000), timestamp: 5, body: body)
        #expect(both.components(separatedBy: "v1=").count == 3)
        for secret in ["whsec_new", "whsec_old"] {
            #expect(WebhookSignature.verify(both, secret: secret, body: body, now: 5), "\(secret)")
        }
        let after = WebhookSignature.value(secrets: endpoint.signingSecrets(now: 10_000), timestamp: 10, body: body)
        #expect(!WebhookSignature.verify(after, secret: "whsec_old", body: body, now: 10))
        endpoint.previousSecret = nil
        #expect(endpoint.signingSecrets(now: 0) == ["whsec_new"])
    }
}
