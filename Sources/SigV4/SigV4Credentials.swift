/// An access key pair, read from the environment or a credentials file, never from a command line. Its
/// descriptions show the access key id alone, so a logged or printed value never carries the secret.
package struct SigV4Credentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    package let accessKeyID: String
    package let secretAccessKey: String
    /// A temporary credential's token, sent as `x-amz-security-token`.
    package let sessionToken: String?

    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    package var description: String { "SigV4Credentials(\(accessKeyID), secret redacted)" }
    package var debugDescription: String { description }
}
