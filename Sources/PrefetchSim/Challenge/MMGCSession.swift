/// The ACM MM'22 challenge simulator's semantics, reproduced exactly (see docs/simulator.md): one sequential
/// download per step, playback during downloads and sleeps, and its scoring with the quirks that change numbers.
public struct MMGCSession: Sendable {
    public let videos: [ShortVideo]
    /// How long the user watches each session video, in ms.
    public let watch: [Int]
    public let trace: NetworkTrace

    public static let rttMilliseconds = 80.0
    public static let efficiency = 0.95
    public static let rebufferPenalty = 1.85

    public init(videos: [ShortVideo], watch: [Int], trace: NetworkTrace) {
        precondition(videos.count == watch.count, "one watch time per video")
        self.videos = videos
        self.watch = watch
        self.trace = trace
    }

    /// Runs the session. `lastChunkBitrate` is the challenge's module-level list that survives between runs
    /// (−1 = unset): pass the same array through consecutive traces to reproduce its carry-over.
    public func run(_ policy: some MMGCPolicy, lastChunkBitrate: inout [Double]) -> MMGCResult {
        var policy = policy
        let count = videos.count
        var clock = trace.challengeStart
        var playing = 0, position = 0
        var chunks = [[Int]](repeating: [], count: count)  // rung of each downloaded chunk
        var counts = [Int](repeating: 0, count: count)  // chunks.map(\.count), kept up to date
        var left = [Bool](repeating: false, count: count)
        var samples: [Double] = []
        var previousStep: MMGCStep?
        var qoe = 0.0, bytes = 0.0, wasted = 0.0, rebuffer = 0.0, downloadedChunks = 0
        let mbps = MMGCRates.kbps.map { $0 / 1000 }

        func chunkBytes(_ video: Int, _ index: Int) -> Int { videos[video].chunkBytes[chunks[video][index]][index] }

        /// Plays `duration` ms on the buffers as they are; returns the stalled ms. Swipes happen as watch times end.
        func play(_ duration: Int) -> Int {
            var remaining = duration, stalled = 0
            while remaining > 0, playing < count {
                let target = watch[playing]
                if position >= target {
                    leave()
                    continue
                }
                let step = min(remaining, chunks[playing].count * 1000 - position, target - position)
                if step <= 0 {
                    stalled += remaining
                    break
                }
                position += step
                remaining -= step
                if position >= target { leave() }
            }
            return stalled
        }

        func leave() {
            let video = playing
            left[video] = true
            let firstUnwatched = (watch[video] + 999) / 1000
            for index in firstUnwatched..<max(firstUnwatched, chunks[video].count) {
                wasted += Double(chunkBytes(video, index))
            }
            playing += 1
            position = 0
        }

        while playing < count {
            var view = MMGCView(
                videos: videos, playing: playing, positionMilliseconds: position,
                downloaded: counts, throughputKbps: samples)
            view.rungs = chunks
            view.previousStep = previousStep
            switch policy.decide(view) {
            case let .sleep(milliseconds):
                // A sleep moves playback only; the trace clock stands still.
                let stalled = play(milliseconds)
                previousStep = .sleep(milliseconds: milliseconds)
                rebuffer += Double(stalled)
                qoe -= Self.rebufferPenalty * Double(stalled) / 1000
            case let .download(video, rung):
                let index = chunks[video].count
                let size = videos[video].chunkBytes[rung][index]
                let seconds = trace.transfer(bytes: Double(size), efficiency: Self.efficiency, from: &clock)
                // Python's math.floor(delay + 0.5), as the challenge rounds it.
                let delay = Int((seconds * 1000 + Self.rttMilliseconds + 0.5).rounded(.down))
                previousStep = .download(bytes: size, milliseconds: delay)
                samples.append(Double(size * 8) / Double(delay))
                if samples.count > 5 { samples.removeFirst() }
                let wasLeft = left[video]
                let stalled = play(delay)
                // Scoring of this chunk, as the challenge's loop does it.
                let lastWatched = watch[video] / 1000
                let quality = index <= lastWatched ? mbps[rung] : 0
                var smoothness = 0.0
                if quality > 0 {
                    if index > 0 {
                        smoothness = abs(quality - mbps[chunks[video][index - 1]])
                    } else if video > 0, lastChunkBitrate[video - 1] >= 0 {
                        smoothness = abs(quality - lastChunkBitrate[video - 1])
                    }
                }
                if index == lastWatched, video + 1 < count, let nextFirst = chunks[video + 1].first {
                    smoothness += abs(0 - mbps[nextFirst])
                }
                if index == lastWatched { lastChunkBitrate[video] = quality }
                chunks[video].append(rung)
                counts[video] += 1
                bytes += Double(size)
                downloadedChunks += 1
                // A chunk for a video left during this step is wasted twice, as in the challenge's code.
                if !wasLeft, left[video], index >= (watch[video] + 999) / 1000 { wasted += Double(size) }
                if left[video] { wasted += Double(size) }
                rebuffer += Double(stalled)
                qoe += quality - Self.rebufferPenalty * Double(stalled) / 1000 - smoothness
            }
            if qoe < -10_000 {
                return MMGCResult(
                    score: -1e9, qoe: qoe, bytesDownloaded: bytes, wastedBytes: wasted, rebufferMilliseconds: rebuffer,
                    watchMilliseconds: Double(watch.reduce(0, +)), downloadWatchRatio: 0,
                    chunksDownloaded: Double(downloadedChunks))
            }
        }
        let watched = Double(watch.reduce(0, +))
        return MMGCResult(
            score: qoe - 0.5 * bytes * 8 / 1_000_000, qoe: qoe, bytesDownloaded: bytes, wastedBytes: wasted,
            rebufferMilliseconds: rebuffer, watchMilliseconds: watched,
            downloadWatchRatio: watched > 0 ? Double(downloadedChunks) * 1000 / watched : 0,
            chunksDownloaded: Double(downloadedChunks)
        )
    }
}
