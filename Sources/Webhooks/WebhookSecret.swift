internal import Foundation

/// New endpoints' ids and secrets, from the system's random generator.
package enum WebhookSecret {
    /// `whsec_` and 32 random bytes in base64url: what `reel webhook add` shows once.
    package static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return "whsec_"
            + Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// `whe_` and 16 random hex digits.
    package static func endpointID() -> String {
        var generator = SystemRandomNumberGenerator()
        return "whe_" + String(format: "%016llx", generator.next() as UInt64)
    }
}
