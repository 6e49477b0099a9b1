extension PolicyName {
    /// The challenge-mode policy this name stands for. Every name has one: `none`, `next1` and `window` are the
    /// reference table's W0, W1 and W2, so the client model's names can be scored in the challenge's terms too.
    public func makeMMGCPolicy() -> any MMGCPolicy {
        switch self {
        case .noPrefetch, .w0: FixedWindowPolicy.w0
        case .next1, .w1: FixedWindowPolicy.w1
        case .window, .w2: FixedWindowPolicy.w2
        case .w4: FixedWindowPolicy.w4
        case .a2: FixedWindowPolicy.a2
        case let .windowOf(k): FixedWindowPolicy.window(k)
        case .aware: AwarePolicy()
        case .noSave: NoSavePolicy()
        case .fixedPreload: FixedPreloadPolicy()
        case .pdas: PDASPolicy()
        case .lookahead: LookaheadPolicy()
        }
    }
}
