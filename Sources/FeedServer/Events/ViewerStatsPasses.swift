internal import Catalog
internal import ViewerAnalytics

/// What the roll-up keeps between passes: the figures so far, where its reading stopped, and each video's stored
/// figures. A pass reads only the events stored since the last (and the ids it saw missing), so its cost follows the
/// arrival rate, not `--events-retention`. A failed pass starts the next from nothing, which reads every event again.
actor ViewerStatsPasses {
    /// A PostgreSQL transaction whose ids were seen missing this long ago is taken to have rolled back.
    static let gapPatience: Int64 = 60_000

    private var rollup = ViewerStatsRollup()
    private var cursor = EventLogCursor<StoredViewerEvent>(patience: gapPatience)
    private var figures: [String: VideoStats] = [:]

    /// One pass at `now` (Unix milliseconds) over events received at `cutoff` or later. Passes run one at a time (the
    /// Service's loop); the cursor ignores a row taken twice, so an overlap would cost reads, not figures.
    func pass(
        now: Int64, cutoff: Int64, log: any ViewerEventLog, videos: any FeedReading, page: Int
    ) async throws(CatalogError) -> (deleted: Int, events: Int, videos: Int) {
        do {
            let deleted = try await log.deleteViewerEvents(receivedBefore: cutoff)
            var read = 0
            for gap in cursor.gaps {
                var after = gap.ids.lowerBound - 1
                while true {
                    let rows = try await log.viewerEvents(after: after, through: gap.ids.upperBound, limit: page)
                    take(rows, now: now)
                    read += rows.count
                    guard let last = rows.last, rows.count == page else { break }
                    after = last.id
                }
            }
            while true {
                let rows = try await log.viewerEvents(after: cursor.highest, limit: page)
                take(rows, now: now)
                read += rows.count
                if rows.count < page { break }
            }
            rollup.expire(startedBefore: cutoff)
            let changed = rollup.takeChangedVideos()
            // Only the videos whose figures changed: a catalog of 100,000 videos with no new events costs nothing.
            var durations: [String: Double] = [:]
            for id in changed {
                if let video = try await videos.video(id: id) {
                    durations[id] = Double(video.durationMilliseconds) / 1000
                }
            }
            let fresh = rollup.stats(of: changed, durationSeconds: durations)
            for id in changed { figures[id] = fresh[id] }
            try await log.replaceVideoStats(figures.values.sorted { $0.video < $1.video }, rolledAt: now)
            return (deleted, read, figures.count)
        } catch {
            rollup = ViewerStatsRollup()
            cursor = EventLogCursor(patience: Self.gapPatience)
            figures = [:]
            throw error
        }
    }

    /// Hands the rows to the cursor and the roll-up gets those it releases, in id order.
    private func take(_ rows: [StoredViewerEvent], now: Int64) {
        cursor.take(rows.lazy.map { (id: $0.id, element: $0) }, now: now)
        for stored in cursor.release(now: now) { rollup.add(stored.event, receivedAt: stored.receivedAt) }
    }
}
