/// The challenge's "no saving" baseline, from its description: the playing video to its end with RobustMPC
/// (5 chunks ahead, throughput = harmonic mean of the last 5 over 1 + the worst recent error), then the next
/// videos round-robin in 800 KB increments, sleeping 500 ms when nothing is left.
public struct NoSavePolicy: MMGCPolicy {
    public let name = PolicyName.noSave.rawValue
    private var predictions: [Double] = []
    private var errors: [Double] = []
    private var seenSamples = 0
    private var turn = 0
    private var increment = 0

    public init() {}

    public mutating func decide(_ view: MMGCView) -> MMGCDecision {
        recordError(view.throughputKbps)
        if view.hasChunkLeft(view.playing) { return .download(video: view.playing, rung: mpcRung(view)) }
        let next = Array(view.queue.dropFirst()).filter { view.hasChunkLeft($0) }
        guard !next.isEmpty else { return .sleep(milliseconds: 500) }
        if turn >= next.count { turn = 0 }
        let video = next[turn]
        let size = view.videos[video].chunkBytes[0][view.downloaded[video]]
        increment += size
        if increment >= 800_000 {
            increment = 0
            turn += 1
        }
        return .download(video: video, rung: 0)
    }

    private mutating func recordError(_ samples: [Double]) {
        guard let last = samples.last, samples.count + seenSamples > seenSamples, let predicted = predictions.last
        else {
            seenSamples = samples.count
            return
        }
        errors.append(abs(predicted - last) / last)
        if errors.count > 5 { errors.removeFirst() }
        seenSamples = samples.count
    }

    private mutating func mpcRung(_ view: MMGCView) -> Int {
        guard let harmonic = view.throughputKbps.harmonicMean else { return 0 }
        predictions.append(harmonic)
        let throughput = harmonic / (1 + (errors.max() ?? 0))
        let video = view.videos[view.playing]
        let first = view.downloaded[view.playing]
        let horizon = min(5, video.chunkCount - first)
        let previous = view.rungs.indices.contains(view.playing) ? view.rungs[view.playing].last : nil
        var best = (value: -Double.infinity, rung: 0)
        var plan = [Int](repeating: 0, count: horizon)
        func search(_ depth: Int) {
            if depth == horizon {
                var buffer = Double(view.bufferMilliseconds(view.playing)) / 1000
                var value = 0.0
                var last = previous.map { MMGCRates.kbps[$0] / 1000 }
                for (offset, rung) in plan.enumerated() {
                    let seconds = Double(video.chunkBytes[rung][first + offset] * 8) / (throughput * 1000) + 0.08
                    let stall = max(0, seconds - buffer)
                    buffer = max(buffer - seconds, 0) + 1
                    let q = MMGCRates.kbps[rung] / 1000
                    value += q - 1.85 * stall - (last.map { abs(q - $0) } ?? 0)
                    last = q
                }
                if value > best.value { best = (value, plan.first ?? 0) }
                return
            }
            for rung in 0..<3 {
                plan[depth] = rung
                search(depth + 1)
            }
        }
        search(0)
        return best.rung
    }
}
