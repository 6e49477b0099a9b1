package import Crypto
internal import Foundation

/// The `Reel-Signature` header, in the style of Stripe's and Mux's: `t=<unix seconds>,v1=<hex HMAC-SHA256>`, the
/// MAC keyed with the endpoint's secret (its UTF-8 bytes, `whsec_` included) over `<t>.<body>`. A receiver checks
/// the MAC in constant time and refuses a timestamp far from its clock, so a captured delivery cannot be replayed
/// later. docs/webhooks.md shows the check.
package enum WebhookSignature {
    package static let header = "Reel-Signature"

    package static func value(secret: String, timestamp: Int64, body: String) -> String {
        value(secrets: [secret], timestamp: timestamp, body: body)
    }

    /// One `v1` per secret, in order: during a rotation the new secret's and the replaced one's, so a receiver that
    /// still holds either verifies the delivery.
    package static func value(secrets: [String], timestamp: Int64, body: String) -> String {
        (["t=\(timestamp)"] + secrets.map { "v1=\(mac(secret: $0, timestamp: timestamp, body: body))" })
            .joined(separator: ",")
    }

    static func mac(secret: String, timestamp: Int64, body: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(
            for: Data("\(timestamp).\(body)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return code.map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `value` signs `body` with `secret` within `tolerance` seconds of `now`: any of its `v1` entries may
    /// match (a sender may sign with more than one secret).
    package static func verify(
        _ value: String, secret: String, body: String, now: Int64, tolerance: Int64 = 300
    ) -> Bool {
        var timestamp: Int64?
        var candidates: [String] = []
        for part in value.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int64(pair[1]) } else if pair[0] == "v1" { candidates.append(pair[1]) }
        }
        guard let timestamp, abs(now - timestamp) <= tolerance else { return false }
        let expected = Array(mac(secret: secret, timestamp: timestamp, body: body).utf8)
        return candidates.contains { constantTimeEqual(Array($0.utf8), expected) }
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
