/// An object-store call that failed, classified once here so callers decide by case, never by message. The message
/// names the call, the key and what the store said; it never carries a credential.
package struct ObjectStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    package enum Reason: String, Sendable, Equatable {
        /// `--library s3://...` could not be understood (the message names the part).
        case badLocation = "bad_location"
        /// No access key in the environment or the credentials file.
        case missingCredentials = "missing_credentials"
        /// A key that could lead outside the library: empty, `..`, a leading `/`, control characters, over 1024 bytes.
        case badKey = "bad_key"
        /// No such object (404 `NoSuchKey`) or bucket.
        case notFound = "not_found"
        /// A create-only write found the key taken (412), or a conditional read's precondition failed.
        case preconditionFailed = "precondition_failed"
        /// The store refused the credentials or the signature (401/403).
        case denied
        /// 500, 503, `SlowDown` or a connection error that outlasted every retry.
        case unavailable
        /// An answer the client could not use (a malformed listing, a missing upload id).
        case badResponse = "bad_response"
        /// Any other refusal (4xx), with the store's code.
        case refused
    }

    package let reason: Reason
    package let description: String
    /// The HTTP status when the store answered.
    package let status: Int?

    package init(_ reason: Reason, _ description: String, status: Int? = nil) {
        self.reason = reason
        self.description = description
        self.status = status
    }

    /// Worth another try later: the store was away or overloaded.
    package var isTransient: Bool { reason == .unavailable }
}
