/// What a caller asked of the signer that SigV4 does not allow; the message names the limit.
public struct SigV4Error: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        case expiresOutOfRange = "expires_out_of_range"
        case missingHost = "missing_host"
    }

    public let reason: Reason
    public let description: String

    init(_ reason: Reason, _ description: String) {
        self.reason = reason
        self.description = description
    }
}
