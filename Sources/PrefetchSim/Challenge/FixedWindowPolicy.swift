/// The reference table's fixed-window policies (W0, W1, W2, W4) and A2, their retention-aware variant.
public struct FixedWindowPolicy: MMGCPolicy {
    public let name: String
    /// Next videos prefetched up to 3 chunks each.
    public let window: Int
    /// Rule 1: the playing video is topped up first below this buffer.
    public let urgentMilliseconds: Int
    public let sleepMilliseconds: Int
    /// A2 only: chunks beyond the playing video's 2 s margin, or beyond a next video's first chunk, need
    /// retention(chunk) / retention(current position) ≥ this.
    public let retentionRatio: Double?

    public static func named(_ name: String) -> FixedWindowPolicy? {
        switch name {
        case "W0": FixedWindowPolicy(name: name, window: 0, urgentMilliseconds: 3000, sleepMilliseconds: 500, retentionRatio: nil)
        case "W1": FixedWindowPolicy(name: name, window: 1, urgentMilliseconds: 3000, sleepMilliseconds: 500, retentionRatio: nil)
        case "W2": FixedWindowPolicy(name: name, window: 2, urgentMilliseconds: 3000, sleepMilliseconds: 500, retentionRatio: nil)
        case "W4": FixedWindowPolicy(name: name, window: 4, urgentMilliseconds: 3000, sleepMilliseconds: 500, retentionRatio: nil)
        case "A2": FixedWindowPolicy(name: name, window: 2, urgentMilliseconds: 2000, sleepMilliseconds: 250, retentionRatio: 0.7)
        default: nil
        }
    }

    public func decide(_ view: MMGCView) -> MMGCDecision {
        let rung = MMGCRates.rung(for: view.throughputKbps)
        let playing = view.playing
        if view.hasChunkLeft(playing), view.bufferMilliseconds(playing) < urgentMilliseconds, allowed(playing, view) {
            return .download(video: playing, rung: rung)
        }
        for next in view.queue.dropFirst().prefix(window) where view.downloaded[next] < 3 && view.hasChunkLeft(next) && allowed(next, view) {
            return .download(video: next, rung: rung)
        }
        if view.hasChunkLeft(playing), view.bufferMilliseconds(playing) < 10_000, allowed(playing, view) {
            return .download(video: playing, rung: rung)
        }
        return .sleep(milliseconds: sleepMilliseconds)
    }

    private func allowed(_ video: Int, _ view: MMGCView) -> Bool {
        guard let retentionRatio else { return true }
        let chunk = view.downloaded[video]
        let curve = view.videos[video]
        if video == view.playing {
            if chunk * 1000 < view.positionMilliseconds + 2000 { return true }
            let now = curve.retention(atSecond: view.positionMilliseconds / 1000)
            return now > 0 && curve.retention(atSecond: chunk) / now >= retentionRatio
        }
        if chunk == 0 { return true }
        return curve.retention(atSecond: chunk) / curve.retention(atSecond: 0) >= retentionRatio
    }
}
