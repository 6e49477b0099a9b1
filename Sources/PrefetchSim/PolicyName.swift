/// A prefetch policy's name as `reel simulate --policy` spells it. Names are parsed here and nowhere else, so the
/// CLI, the client model and challenge mode agree on the spelling and give the same error for a wrong one.
public enum PolicyName: Hashable, Sendable, CaseIterable {
    /// `none`: the playing video only (W0 in challenge mode).
    case noPrefetch
    /// `next1`: the playing video and the next one (W1 in challenge mode).
    case next1
    /// `window`: two next videos and, in client mode, one behind (W2 in challenge mode).
    case window
    /// `window:K`: K next videos, K in `windowSizes`.
    case windowOf(Int)
    /// `aware`: Reel's bandwidth- and retention-aware policy.
    case aware
    /// The challenge's fixed windows and their retention-aware variant, as named in its reference table.
    case w0, w1, w2, w4, a2
    /// `no_save`, `fixed_preload`: the challenge's two baselines.
    case noSave, fixedPreload
    /// `pdas`: the challenge's winner, reimplemented from its paper.
    case pdas
    /// `lookahead`: Reel's challenge-mode policy, PDAS's buffers with rungs valued over throughput scenarios and
    /// the score's boundary terms.
    case lookahead

    /// The K that `window:K` takes: the challenge's queue holds the playing video and 4 next ones.
    public static let windowSizes = 0...4

    public static let allCases: [PolicyName] =
        [.noPrefetch, .next1, .window] + windowSizes.map(windowOf) + [
            .aware, .w0, .w1, .w2, .w4, .a2, .noSave, .fixedPreload, .pdas, .lookahead,
        ]

    /// Every accepted name as help and errors list it, `window:K` standing for its forms.
    public static var validNames: [String] { listed(allCases) }

    /// The names client mode accepts; the others run in challenge mode only.
    public static var clientModeNames: [String] { listed(allCases.filter(\.runsInClientMode)) }

    /// Parses a name as given on the command line.
    /// - Throws: `PolicyNameError.unknown` naming the text and listing `validNames`.
    public init(parsing text: String) throws(PolicyNameError) {
        guard let name = PolicyName(rawValue: text) else { throw .unknown(text) }
        self = name
    }

    /// Whether the client model has a meaning for this name (challenge mode runs them all).
    public var runsInClientMode: Bool {
        switch self {
        case .noPrefetch, .next1, .window, .windowOf, .aware: true
        case .w0, .w1, .w2, .w4, .a2, .noSave, .fixedPreload, .pdas, .lookahead: false
        }
    }

    private static func listed(_ names: [PolicyName]) -> [String] {
        var listed: [String] = []
        for name in names {
            let spelling = if case .windowOf = name { "window:K" } else { name.rawValue }
            if !listed.contains(spelling) { listed.append(spelling) }
        }
        return listed
    }
}

extension PolicyName: RawRepresentable, CustomStringConvertible {
    /// The name exactly as `rawValue` spells it; nil for anything else (`window:K` only for K in `windowSizes`).
    public init?(rawValue: String) {
        guard let name = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = name
    }

    public var rawValue: String {
        switch self {
        case .noPrefetch: "none"
        case .next1: "next1"
        case .window: "window"
        case let .windowOf(k): "window:\(k)"
        case .aware: "aware"
        case .w0: "W0"
        case .w1: "W1"
        case .w2: "W2"
        case .w4: "W4"
        case .a2: "A2"
        case .noSave: "no_save"
        case .fixedPreload: "fixed_preload"
        case .pdas: "pdas"
        case .lookahead: "lookahead"
        }
    }

    public var description: String { rawValue }
}
