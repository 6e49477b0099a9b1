/// The challenge's "fixed preload" quick-start policy, matched to its `quickstart/fix_preload.py`: the playing
/// video first; then, in queue order, the first next video with fewer than 4 chunks whose next chunk is watched
/// with conditional probability r(chunk) / r(0) > 0.65; the rung from that video's own buffer (> 2 s: 2,
/// > 1 s: 1, else 0); 500 ms sleeps when nothing qualifies. Its very first step is video 0 at rung 0.
public struct FixedPreloadPolicy: MMGCPolicy {
    public let name = PolicyName.fixedPreload.rawValue
    static let preloadChunks = 4
    static let retentionThreshold = 0.65

    public init() {}

    public func decide(_ view: MMGCView) -> MMGCDecision {
        guard view.previousStep != nil else { return .download(video: view.playing, rung: 0) }
        guard let video = Self.target(view) else { return .sleep(milliseconds: 500) }
        let buffer = view.bufferMilliseconds(video)
        return .download(video: video, rung: buffer > 2000 ? 2 : (buffer > 1000 ? 1 : 0))
    }

    static func target(_ view: MMGCView) -> Int? {
        if view.hasChunkLeft(view.playing) { return view.playing }
        for next in view.queue.dropFirst() where view.downloaded[next] < preloadChunks && view.hasChunkLeft(next) {
            let curve = view.videos[next]
            // A next video has not started: its play position is chunk 0.
            if curve.retention(atSecond: view.downloaded[next]) / curve.retention(atSecond: 0) > retentionThreshold {
                return next
            }
        }
        return nil
    }
}
