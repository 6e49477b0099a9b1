/// What a caller asked of the signer that SigV4 does not allow; the message names the limit.
package struct SigV4Error: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Reason: String, Sendable {
        case expiresOutOfRange = "expires_out_of_range"
        case missingHost = "missing_host"
    }

    package let reason: Reason
    package let description: String

    init(_ reason: Reason, _ description: String) {
        self.reason = reason
        self.description = description
    }
}
