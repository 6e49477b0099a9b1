/// What viewers made of one video, rolled up from their events (`GET /v1/videos/{id}/stats`, `reel stats`).
public struct VideoStats: Sendable, Equatable, Codable {
    public var video: String
    public var views: Int
    public var sessions: Int
    public var startupMedianMilliseconds: Int?
    public var startupP90Milliseconds: Int?
    /// Stalled time over watched time.
    public var rebufferRatio: Double
    /// Mean over views of the watched share of the video, each capped at 1 (a loop is not a second view).
    public var meanWatchedFraction: Double
    /// Views that reached the end, over views.
    public var completionRate: Double
    public var bytesPerView: Double
    /// `retention[t]`: the share of views still watching at second t, for t = 0 up to 60 s or the video's length.
    public var retention: [Double]

    public init(
        video: String, views: Int, sessions: Int, startupMedianMilliseconds: Int?, startupP90Milliseconds: Int?,
        rebufferRatio: Double, meanWatchedFraction: Double, completionRate: Double, bytesPerView: Double,
        retention: [Double]
    ) {
        self.video = video
        self.views = views
        self.sessions = sessions
        self.startupMedianMilliseconds = startupMedianMilliseconds
        self.startupP90Milliseconds = startupP90Milliseconds
        self.rebufferRatio = rebufferRatio
        self.meanWatchedFraction = meanWatchedFraction
        self.completionRate = completionRate
        self.bytesPerView = bytesPerView
        self.retention = retention
    }

    enum CodingKeys: String, CodingKey {
        case video, views, sessions
        case startupMedianMilliseconds = "startup_median_ms"
        case startupP90Milliseconds = "startup_p90_ms"
        case rebufferRatio = "rebuffer_ratio"
        case meanWatchedFraction = "mean_watched_fraction"
        case completionRate = "completion_rate"
        case bytesPerView = "bytes_per_view"
        case retention
    }
}
