import Foundation

/// One PDAS decision's arithmetic on a snapshot: the maximum buffers, the target and the rung. Pure, so each
/// formula is tested on its own.
struct PDASPlan {
    let view: MMGCView
    /// Predicted throughput, kbps (bits per ms).
    let kbps: Double
    let parameters: PDASPolicy.Parameters

    /// P(the chunk after `video`'s buffered end is watched | the viewer is where they are now).
    func nextChunkProbability(_ video: Int) -> Double {
        watchProbability(video, chunk: view.downloaded[video])
    }

    /// P(chunk `chunk` of `video` is watched | now): r(chunk) / r(current second), 1 at most.
    func watchProbability(_ video: Int, chunk: Int) -> Double {
        let curve = view.videos[video]
        let second = video == view.playing ? view.positionMilliseconds / 1000 : 0
        let now = curve.retention(atSecond: second)
        guard now > 0 else { return 0 }
        return min(1, curve.retention(atSecond: chunk) / now)
    }

    /// `b_th`, seconds: 3.5 · e^(−0.3·C − 0.15·(i − i_c)).
    func threshold(_ video: Int) -> Double {
        parameters.thresholdScale
            * exp(
                -parameters.throughputExponent * kbps / 1000 - parameters.distanceExponent
                    * Double(video - view.playing))
    }

    /// `b_max`, seconds.
    func maximumBuffer(_ video: Int) -> Double {
        max(nextChunkProbability(video) * parameters.maximumBufferSeconds, threshold(video))
    }

    /// The first video in queue order with a chunk left and less than its `b_max` buffered.
    var target: Int? {
        view.queue.first { video in
            view.hasChunkLeft(video) && Double(view.bufferMilliseconds(video)) < maximumBuffer(video) * 1000
        }
    }

    /// Until the playing video drops to its `b_max`, within the configured bounds.
    var sleepMilliseconds: Int {
        let playing = view.playing
        let bounds = parameters.sleepMilliseconds
        guard view.hasChunkLeft(playing) else { return bounds.upperBound }
        let surplus = Double(view.bufferMilliseconds(playing)) - maximumBuffer(playing) * 1000
        return min(bounds.upperBound, max(bounds.lowerBound, Int(surplus.rounded(.up))))
    }

    /// Chunks planned for `video`: up to the horizon for the playing video; for a next one, the chunks that take
    /// it to its `b_max` (at least one).
    func horizon(_ video: Int) -> Int {
        let left = view.videos[video].chunkCount - view.downloaded[video]
        if video == view.playing { return min(parameters.playingHorizon, left) }
        let wanted = Int((maximumBuffer(video) - Double(view.bufferMilliseconds(video)) / 1000).rounded(.up))
        return min(left, max(1, wanted))
    }

    /// The first rung of the plan with the best expected value; the lower rung on a tie.
    func rung(for video: Int) -> Int {
        let chunks = horizon(video)
        guard chunks > 0 else { return 0 }
        let figures = ChunkFigures(plan: self, video: video, chunks: chunks)
        var best = (value: -Double.infinity, rung: 0)
        RungPlans.forEach(count: chunks) { plan in
            let value = figures.value(plan)
            if value > best.value { best = (value, plan[0]) }
        }
        return best.rung
    }

    /// Expected QoE minus cost of fetching `plan`'s rungs for `video`'s next chunks back to back: each chunk's
    /// quality and switch weighted by the chance it is watched, each stall of the playing video by the chance the
    /// viewer is still watching when it happens, and every byte paid for.
    func expectedValue(video: Int, plan: [Int]) -> Double {
        ChunkFigures(plan: self, video: video, chunks: plan.count).value(plan)
    }

    /// What every plan for one video reads, worked out once per decision.
    struct ChunkFigures {
        let parameters: PDASPolicy.Parameters
        let isPlaying: Bool
        let startBuffer: Double
        let playingStillWatched: Double
        let firstPrevious: Int?
        /// Per planned chunk: P(watched), and per rung its bytes and download ms.
        let watched: [Double]
        let bytes: [[Double]]
        let milliseconds: [[Double]]
        static let mbps = MMGCRates.kbps.map { $0 / 1000 }

        init(plan: PDASPlan, video: Int, chunks: Int) {
            let view = plan.view
            parameters = plan.parameters
            isPlaying = video == view.playing
            startBuffer = Double(view.bufferMilliseconds(view.playing))
            playingStillWatched = view.hasChunkLeft(view.playing) ? plan.nextChunkProbability(view.playing) : 0
            firstPrevious = view.rungs.indices.contains(video) ? view.rungs[video].last : nil
            let first = view.downloaded[video]
            watched = (0..<chunks).map { plan.watchProbability(video, chunk: first + $0) }
            bytes = (0..<chunks).map { k in (0..<3).map { Double(view.videos[video].chunkBytes[$0][first + k]) } }
            milliseconds = bytes.map { $0.map { $0 * 8 / plan.kbps + MMGCSession.rttMilliseconds } }
        }

        func value(_ plan: [Int]) -> Double {
            var buffer = startBuffer
            var previous = firstPrevious
            var value = 0.0
            for (k, rung) in plan.enumerated() {
                let download = milliseconds[k][rung]
                let stall = max(0, download - buffer)
                buffer = max(0, buffer - download)
                let stallWeight: Double
                if isPlaying {
                    stallWeight = watched[k]
                    buffer += 1000
                } else {
                    stallWeight = playingStillWatched
                }
                let quality = Self.mbps[rung]
                let switchCost = previous.map { abs(quality - Self.mbps[$0]) } ?? 0
                value += watched[k] * (quality - switchCost)
                value -= parameters.rebufferPenalty * stallWeight * stall / 1000
                value -= parameters.costPerMegabit * bytes[k][rung] * 8 / 1_000_000
                previous = rung
            }
            return value
        }
    }
}
