/// An access key pair, read from the environment or a credentials file, never from a command line. Its
/// descriptions show the access key id alone, so a logged or printed value never carries the secret.
public struct SigV4Credentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let accessKeyID: String
    public let secretAccessKey: String
    /// A temporary credential's token, sent as `x-amz-security-token`.
    public let sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    public var description: String { "SigV4Credentials(\(accessKeyID), secret redacted)" }
    public var debugDescription: String { description }
}
