/// The challenge's "fixed preload" baseline, written from its description: the playing video first, then up to
/// 4 chunks of each next video while P(chunk watched | video started) > 0.65; rung by the playing buffer.
public struct FixedPreloadPolicy: MMGCPolicy {
    public let name = PolicyName.fixedPreload.rawValue
    public init() {}

    public func decide(_ view: MMGCView) -> MMGCDecision {
        let buffer = view.bufferMilliseconds(view.playing)
        let rung = buffer < 1000 ? 0 : (buffer <= 2000 ? 1 : 2)
        if view.hasChunkLeft(view.playing) { return .download(video: view.playing, rung: rung) }
        for next in view.queue.dropFirst() where view.downloaded[next] < 4 && view.hasChunkLeft(next) {
            let curve = view.videos[next]
            if curve.retention(atSecond: view.downloaded[next]) / curve.retention(atSecond: 0) > 0.65 {
                return .download(video: next, rung: rung)
            }
        }
        return .sleep(milliseconds: 500)
    }
}
