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

    /// `T_max`, seconds, at this throughput.
    var maximumBufferSeconds: Double {
        guard parameters.maximumBufferSlope != 0 else { return parameters.maximumBufferSeconds }
        let seconds = parameters.maximumBufferSeconds + parameters.maximumBufferSlope * (2 - kbps / 1000)
        return min(parameters.maximumBufferRange.upperBound, max(parameters.maximumBufferRange.lowerBound, seconds))
    }

    /// `b_max`, seconds.
    func maximumBuffer(_ video: Int) -> Double {
        let decay = pow(parameters.neighbourDecay, Double(video - view.playing))
        return max(nextChunkProbability(video) * maximumBufferSeconds * decay, threshold(video))
    }

    /// Fetches the target at the rung `rung` picks for it, or sleeps when every buffer is full.
    func decision(rung: (Int) -> Int) -> MMGCDecision {
        guard let video = target else { return .sleep(milliseconds: sleepMilliseconds) }
        return .download(video: video, rung: rung(video))
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
        PlanFigures(plan: self, video: video, chunks: horizon(video), scenarios: [kbps], valuesBoundary: false)
            .bestFirstRung()
    }

    /// Expected QoE minus cost of fetching `plan`'s rungs for `video`'s next chunks back to back: each chunk's
    /// quality and switch weighted by the chance it is watched, each stall of the playing video by the chance the
    /// viewer is still watching when it happens, and every byte paid for.
    func expectedValue(video: Int, plan: [Int]) -> Double {
        PlanFigures(plan: self, video: video, chunks: plan.count, scenarios: [kbps], valuesBoundary: false).value(plan)
    }

    /// P(the score charges a next video's first chunk in full): the challenge adds the Mbps of `video`'s chunk 0 to
    /// the smoothness of the chunk before it, the previous video's last watched chunk, if chunk 0 is there when that
    /// one arrives. It is still to come when the viewer will watch past what the previous video has buffered.
    func boundaryChargeProbability(_ video: Int) -> Double {
        let previous = video - 1
        guard video > view.playing, view.downloaded[video] == 0, view.hasChunkLeft(previous) else { return 0 }
        return nextChunkProbability(previous)
    }
}
