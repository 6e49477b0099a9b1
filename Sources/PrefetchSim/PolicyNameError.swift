/// A policy name that cannot be used where it was given. It carries the name and the names that would have worked,
/// so the message alone tells the user what to type instead.
public struct PolicyNameError: Error, CustomStringConvertible, Sendable, Equatable {
    private enum Kind: Sendable, Equatable {
        case unknown
        case challengeOnly
    }

    private let kind: Kind
    /// The name as it was given.
    public let name: String

    /// Not a policy name at all.
    public static func unknown(_ name: String) -> PolicyNameError { PolicyNameError(kind: .unknown, name: name) }

    /// A challenge-mode policy asked of the client model.
    public static func challengeOnly(_ name: PolicyName) -> PolicyNameError {
        PolicyNameError(kind: .challengeOnly, name: name.rawValue)
    }

    /// The names that would have been accepted where this one was given.
    public var validNames: [String] {
        switch kind {
        case .unknown: PolicyName.validNames
        case .challengeOnly: PolicyName.clientModeNames
        }
    }

    public var description: String {
        let valid = validNames.joined(separator: ", ")
        let range = "K \(PolicyName.windowSizes.lowerBound)–\(PolicyName.windowSizes.upperBound)"
        switch kind {
        case .unknown: return "unknown policy \"\(name)\" (valid: \(valid); \(range))"
        case .challengeOnly: return "policy \"\(name)\" runs in mmgc mode only (client mode takes: \(valid); \(range))"
        }
    }
}
