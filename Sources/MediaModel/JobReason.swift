/// Why a job ended the way it did, as stored in the jobs table and reported by `/v1/jobs/{id}`: a rejection, a
/// failure, or a byte-identical duplicate of something already published.
public enum JobReason: Sendable, Equatable, Hashable, CustomStringConvertible {
    case rejected(RejectionReason)
    case failed(FailureReason)
    case duplicate

    /// The stable code written to the catalog and to JSON.
    public var code: String {
        switch self {
        case let .rejected(reason): reason.rawValue
        case let .failed(reason): reason.rawValue
        case .duplicate: "duplicate"
        }
    }

    /// Parses a stored code; nil for a code this version does not know.
    public init?(code: String) {
        if code == "duplicate" {
            self = .duplicate
        } else if let reason = RejectionReason(rawValue: code) {
            self = .rejected(reason)
        } else if let reason = FailureReason(rawValue: code) {
            self = .failed(reason)
        } else {
            return nil
        }
    }

    public var description: String { code }
}
