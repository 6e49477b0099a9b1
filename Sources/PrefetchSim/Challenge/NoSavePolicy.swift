/// The challenge's "no saving" baseline, matched to its `baseline/no_save.py` step for step (docs/simulator.md):
/// the playing video to its end, then the next videos in 800 KB levels (the first video below the lowest level
/// reached), every chunk at the rung RobustMPC picks for that video, and 500 ms sleeps when nothing is left.
///
/// Its quirks change scores, so they are kept: each step records two errors and two estimates (the baseline's
/// own estimate, then the MPC module's on the same lists), and the MPC's "previous rung" carries over from one
/// candidate plan to the next instead of restarting at the video's last rung.
public struct NoSavePolicy: MMGCPolicy {
    public let name = PolicyName.noSave.rawValue
    /// The last five throughputs in MB/s, oldest first; 0 = no sample yet, as its zero-filled array.
    private var samples = [Double](repeating: 0, count: 5)
    private var lastEstimate: Double?
    /// The last five recorded errors (the max over them is all that is read).
    private var errors: [Double] = []

    static let preloadLevelBytes = 800_000
    static let sleepMilliseconds = 500
    static let firstRung = 2

    public init() {}

    public mutating func decide(_ view: MMGCView) -> MMGCDecision {
        guard let previous = view.previousStep else { return .download(video: view.playing, rung: Self.firstRung) }
        if case let .download(bytes, milliseconds) = previous {
            samples.removeFirst()
            samples.append((Double(bytes) / 1_000_000) / (Double(milliseconds) / 1000))
        }
        guard let video = Self.target(view) else { return .sleep(milliseconds: Self.sleepMilliseconds) }
        return .download(video: video, rung: mpcRung(view, video: video))
    }

    /// The playing video while it has chunks left; then, of the next videos with chunks left, the first whose
    /// downloaded bytes sit in the lowest 800 KB level.
    static func target(_ view: MMGCView) -> Int? {
        if view.hasChunkLeft(view.playing) { return view.playing }
        var best: (video: Int, level: Int)?
        for next in view.queue.dropFirst() where view.hasChunkLeft(next) {
            let level = view.downloadedBytes(next) / preloadLevelBytes
            if best == nil || level < best!.level { best = (next, level) }
        }
        return best?.video
    }

    /// The harmonic mean of the samples after the leading empty slots.
    private var harmonicMean: Double {
        let taken = samples.drop { $0 == 0 }
        var sum = 0.0
        for sample in taken { sum += 1 / sample }
        return 1 / (sum / Double(taken.count))
    }

    private mutating func record(error estimate: Double?, checkSample: Bool) {
        let last = samples[samples.count - 1]
        var error = 0.0
        if let estimate, !checkSample || last != 0 { error = abs(estimate - last) / last }
        errors.append(error)
        if errors.count > 5 { errors.removeFirst() }
    }

    private mutating func mpcRung(_ view: MMGCView, video: Int) -> Int {
        record(error: lastEstimate, checkSample: true)
        let harmonic = harmonicMean
        lastEstimate = harmonic
        record(error: lastEstimate, checkSample: false)
        let throughput = harmonic / (1 + (errors.max() ?? 0))
        let first = view.downloaded[video]
        let sizes = view.videos[video].chunkBytes
        let horizon = min(5, view.videos[video].chunkCount - first)
        return RobustMPC.firstRung(
            horizon: horizon, bufferMilliseconds: Double(view.bufferMilliseconds(video)),
            previousRung: view.rungs[video].last ?? 0, throughputMBps: throughput
        ) { rung, offset in sizes[rung][first + offset] }
    }
}
