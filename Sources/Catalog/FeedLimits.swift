/// The feed's page size bound, the same on every engine.
public enum FeedLimits {
    public static let maximumPageSize = 50
}
