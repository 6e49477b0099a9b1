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

    public static let w0 = plain(.w0, window: 0)
    public static let w1 = plain(.w1, window: 1)
    public static let w2 = plain(.w2, window: 2)
    public static let w4 = plain(.w4, window: 4)
    public static let a2 = FixedWindowPolicy(
        name: PolicyName.a2.rawValue, window: 2, urgentMilliseconds: 2000,
        sleepMilliseconds: 250, retentionRatio: 0.7)

    /// `window:K`: the plain fixed window over `k` next videos, of which W0…W4 are the reference table's instances.
    public static func window(_ k: Int) -> FixedWindowPolicy { plain(.windowOf(k), window: k) }

    private static func plain(_ name: PolicyName, window: Int) -> FixedWindowPolicy {
        FixedWindowPolicy(
            name: name.rawValue, window: window, urgentMilliseconds: 3000, sleepMilliseconds: 500, retentionRatio: nil)
    }

    public func decide(_ view: MMGCView) -> MMGCDecision {
        let rung = MMGCRates.rung(for: view.throughputKbps)
        let playing = view.playing
        if view.hasChunkLeft(playing), view.bufferMilliseconds(playing) < urgentMilliseconds, allowed(playing, view) {
            return .download(video: playing, rung: rung)
        }
        for next in view.queue.dropFirst().prefix(window)
        where view.downloaded[next] < 3 && view.hasChunkLeft(next) && allowed(next, view) {
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
