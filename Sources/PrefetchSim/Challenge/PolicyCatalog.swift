/// Policy names accepted by `reel simulate`.
public enum PolicyCatalog {
    public static let names = ["none", "next1", "window", "window:K", "aware", "W0", "W1", "W2", "W4", "A2", "no_save", "fixed_preload"]

    public static func policy(named name: String) -> (any MMGCPolicy)? {
        switch name {
        case "none": return FixedWindowPolicy.named("W0")
        case "next1": return FixedWindowPolicy.named("W1")
        case "window": return FixedWindowPolicy.named("W2")
        case "aware": return AwarePolicy()
        case "no_save": return NoSavePolicy()
        case "fixed_preload": return FixedPreloadPolicy()
        default:
            if name.hasPrefix("window:"), let k = Int(name.dropFirst(7)), (0...4).contains(k) {
                return FixedWindowPolicy(name: name, window: k, urgentMilliseconds: 3000, sleepMilliseconds: 500, retentionRatio: nil)
            }
            return FixedWindowPolicy.named(name)
        }
    }
}
