/// Reel's bandwidth- and retention-aware policy. Like A2 it keeps a 2 s safety margin on the playing video and
/// prefetches next videos only while viewers are likely to reach those chunks; unlike A2 it reads the network:
/// on a slow link it protects the playing video (3 s margin, one next video) and picks rungs more cautiously,
/// and on a fast one it opens the window to the next 3 videos.
public struct AwarePolicy: MMGCPolicy {
    public let name = "aware"

    public init() {}

    public func decide(_ view: MMGCView) -> MMGCDecision {
        let samples = view.throughputKbps
        let harmonic = samples.isEmpty ? 0 : Double(samples.count) / samples.reduce(0) { $0 + 1 / $1 }
        let slow = samples.isEmpty || harmonic < 1.5 * MMGCRates.kbps[0]
        let fast = harmonic > 3 * MMGCRates.kbps[2]
        let urgent = slow ? 3000 : 2000
        let window = slow ? 1 : (fast ? 3 : 2)
        let ratio = slow ? 0.75 : 0.7
        // A slower link keeps the rung a notch lower than the plain 0.8 × harmonic rule would.
        var rung = MMGCRates.rung(for: samples)
        if slow, view.bufferMilliseconds(view.playing) < 4000 { rung = 0 }
        let playing = view.playing
        func allowed(_ video: Int) -> Bool {
            let chunk = view.downloaded[video]
            let curve = view.videos[video]
            if video == playing {
                if chunk * 1000 < view.positionMilliseconds + urgent { return true }
                let now = curve.retention(atSecond: view.positionMilliseconds / 1000)
                return now > 0 && curve.retention(atSecond: chunk) / now >= ratio
            }
            return chunk == 0 || curve.retention(atSecond: chunk) >= ratio
        }
        if view.hasChunkLeft(playing), view.bufferMilliseconds(playing) < urgent, allowed(playing) {
            return .download(video: playing, rung: rung)
        }
        for next in view.queue.dropFirst().prefix(window) where view.downloaded[next] < (slow ? 1 : 2) && view.hasChunkLeft(next) && allowed(next) {
            return .download(video: next, rung: rung)
        }
        if view.hasChunkLeft(playing), view.bufferMilliseconds(playing) < 8000, allowed(playing) {
            return .download(video: playing, rung: rung)
        }
        return .sleep(milliseconds: 250)
    }
}
