/// Reel's side failed while processing `path`: the reason, a sentence naming the call or limit involved, and whether
/// another attempt may pass.
public struct ProcessingFailure: Error, Codable, Sendable, Equatable, CustomStringConvertible {
    public var reason: FailureReason
    public var message: String
    public var path: String
    public var retryable: Bool

    public init(_ reason: FailureReason, _ message: String, path: String, retryable: Bool? = nil) {
        self.reason = reason
        self.message = message
        self.path = path
        self.retryable = retryable ?? reason.isRetryableByDefault
    }

    public var description: String { "\(path): \(reason.rawValue): \(message)" }
}
