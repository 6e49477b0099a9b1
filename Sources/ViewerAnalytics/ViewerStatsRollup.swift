/// Rolls events up into per-video figures. A view runs from a `view_start` to its `view_end` for the same session
/// and video; a view that never sent its end (a closed tab whose beacon was lost) counts what its last `progress`
/// said, and as not completed. It is kept across passes: each adds only the events stored since the last, and
/// `expire(startedBefore:)` drops what the deleted events had started, so a pass costs the new events, not the window.
package struct ViewerStatsRollup: Sendable {
    /// The longest retention curve kept, in seconds.
    package static let retentionSeconds = 60

    private struct View {
        /// When its `view_start` was received (Unix milliseconds).
        var started: Int64
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
    /// Per video, each session's latest `view_start` time.
    private var sessions: [String: [String: Int64]] = [:]
    /// The earliest start held: expiring before it has nothing to drop.
    private var earliestStart = Int64.max
    /// The videos whose figures changed since `takeChangedVideos()`.
    private var changed: Set<String> = []

    package init() {}

    /// Adds events in the order they were stored, with no arrival time: `expire` never drops them.
    package mutating func add(_ events: some Sequence<ViewerEvent>) {
        for event in events { add(event, receivedAt: .max) }
    }

    /// Adds one event, in the order events were stored, received at `receivedAt` (Unix milliseconds).
    package mutating func add(_ event: ViewerEvent, receivedAt: Int64) {
        guard let video = event.video else { return }
        let key = Key(session: event.session, video: video)
        switch event.kind {
        case let .viewStart(_, startup):
            close(key)
            open[key] = View(started: receivedAt, startup: startup)
            sessions[video, default: [:]][event.session] = receivedAt
            earliestStart = min(earliestStart, receivedAt)
        case let .stall(milliseconds):
            guard open[key] != nil else { return }
            open[key]?.stalled += Double(milliseconds)
        case let .progress(_, watched):
            guard let view = open[key] else { return }
            open[key]?.watched = max(view.watched, watched)
        case let .viewEnd(watched, completed, bytes):
            guard var view = open[key] else { return }
            view.watched = max(view.watched, watched)
            view.completed = completed
            view.bytes = bytes
            open[key] = view
            close(key)
        case .segment, .error:
            return
        }
        changed.insert(video)
    }

    private mutating func close(_ key: Key) {
        guard let view = open.removeValue(forKey: key) else { return }
        closed[key.video, default: []].append(view)
    }

    /// Drops the views started before `cutoff` (Unix milliseconds), and the sessions whose latest start was, as if
    /// the events received before it had never been added. Events after a dropped start find no view, as they would.
    package mutating func expire(startedBefore cutoff: Int64) {
        guard cutoff > earliestStart else { return }
        earliestStart = .max
        for (key, view) in open where view.started < cutoff {
            open[key] = nil
            changed.insert(key.video)
        }
        for view in open.values { earliestStart = min(earliestStart, view.started) }
        for (video, views) in closed {
            let kept = views.filter { $0.started >= cutoff }
            if kept.count < views.count {
                closed[video] = kept.isEmpty ? nil : kept
                changed.insert(video)
            }
            for view in kept { earliestStart = min(earliestStart, view.started) }
        }
        for (video, starts) in sessions {
            let kept = starts.filter { $0.value >= cutoff }
            sessions[video] = kept.isEmpty ? nil : kept
        }
    }

    /// The videos whose figures may differ from the last time this was called (some may now have no view), in id
    /// order; it starts afresh.
    package mutating func takeChangedVideos() -> [String] {
        defer { changed = [] }
        return changed.sorted()
    }

    /// The videos with a view so far, in id order.
    package var videosViewed: [String] {
        Set(closed.keys).union(open.keys.map(\.video)).sorted()
    }

    /// Figures for every video with a view, open views included as they stand. `durationSeconds` gives each video's
    /// length; a video missing from it is taken to be as long as its longest view.
    package func stats(durationSeconds: [String: Double]) -> [String: VideoStats] {
        stats(of: videosViewed, durationSeconds: durationSeconds)
    }

    /// Figures for those of `videos` with a view; the others are missing from the result.
    package func stats(of videos: some Sequence<String>, durationSeconds: [String: Double]) -> [String: VideoStats] {
        var views: [String: [View]] = [:]
        for video in videos { views[video] = closed[video] ?? [] }
        for (key, view) in open where views[key.video] != nil { views[key.video]?.append(view) }
        var result: [String: VideoStats] = [:]
        for (video, list) in views where !list.isEmpty {
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
        // One sort instead of a scan per second: a video's views grow with --events-retention.
        let watchedSorted = views.map(\.watched).sorted()
        let retention = (0...max(0, seconds)).map { second in
            Double(watchedSorted.count - watchedSorted.partitioningIndex { $0 >= Double(second) }) / count
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
