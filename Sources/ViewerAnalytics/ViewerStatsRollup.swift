/// Rolls events up into per-video figures. A view runs from a `view_start` to its `view_end` for the same session
/// and video; a view that never sent its end (a closed tab whose beacon was lost) counts what its last `progress`
/// said, and as not completed.
public struct ViewerStatsRollup: Sendable {
    /// The longest retention curve kept, in seconds.
    public static let retentionSeconds = 60

    private struct View {
        var startup: Int
        var watched = 0.0
        var stalled = 0.0
        var completed = false
        var bytes = 0
    }

    private struct Key: Hashable {
        let session: String, video: String
    }

    private var open: [Key: View] = [:]
    private var closed: [String: [View]] = [:]
    private var sessions: [String: Set<String>] = [:]

    public init() {}

    /// Adds events in the order they were stored.
    public mutating func add(_ events: some Sequence<ViewerEvent>) {
        for event in events {
            guard let video = event.video else { continue }
            let key = Key(session: event.session, video: video)
            switch event.kind {
            case let .viewStart(_, startup):
                close(key)
                open[key] = View(startup: startup)
                sessions[video, default: []].insert(event.session)
            case let .stall(milliseconds):
                open[key]?.stalled += Double(milliseconds)
            case let .progress(_, watched):
                if let view = open[key] { open[key]?.watched = max(view.watched, watched) }
            case let .viewEnd(watched, completed, bytes):
                guard var view = open[key] else { continue }
                view.watched = max(view.watched, watched)
                view.completed = completed
                view.bytes = bytes
                open[key] = view
                close(key)
            case .segment, .error:
                break
            }
        }
    }

    private mutating func close(_ key: Key) {
        guard let view = open.removeValue(forKey: key) else { return }
        closed[key.video, default: []].append(view)
    }

    /// The videos with a view so far, in id order.
    public var videosViewed: [String] {
        Set(closed.keys).union(open.keys.map(\.video)).sorted()
    }

    /// Figures for every video with a view, open views included as they stand. `durationSeconds` gives each video's
    /// length; a video missing from it is taken to be as long as its longest view.
    public func stats(durationSeconds: [String: Double]) -> [String: VideoStats] {
        var views = closed
        for (key, view) in open { views[key.video, default: []].append(view) }
        var result: [String: VideoStats] = [:]
        for (video, list) in views {
            let duration = durationSeconds[video] ?? list.map(\.watched).max() ?? 0
            result[video] = Self.stats(
                video: video, views: list, sessions: sessions[video]?.count ?? 0, duration: duration)
        }
        return result
    }

    private static func stats(video: String, views: [View], sessions: Int, duration: Double) -> VideoStats {
        let count = Double(views.count)
        let startups = views.map(\.startup).sorted()
        let watched = views.map(\.watched).reduce(0, +)
        let fractions = views.map { duration > 0 ? min(1, $0.watched / duration) : ($0.completed ? 1 : 0) }
        let seconds = min(retentionSeconds, Int(duration.rounded(.up)))
        let retention = (0...max(0, seconds)).map { second in
            Double(views.filter { $0.watched >= Double(second) }.count) / count
        }
        return VideoStats(
            video: video, views: views.count, sessions: sessions,
            startupMedianMilliseconds: Self.percentile(startups, 0.5),
            startupP90Milliseconds: Self.percentile(startups, 0.9),
            rebufferRatio: watched > 0 ? views.map(\.stalled).reduce(0, +) / 1000 / watched : 0,
            meanWatchedFraction: fractions.reduce(0, +) / count,
            completionRate: Double(views.filter(\.completed).count) / count,
            bytesPerView: Double(views.map(\.bytes).reduce(0, +)) / count,
            retention: retention, startupHistogram: VideoStats.startupHistogram(of: startups))
    }

    /// Nearest rank: the smallest value with at least `p` of the values at or below it.
    static func percentile(_ sorted: [Int], _ p: Double) -> Int? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }
}
