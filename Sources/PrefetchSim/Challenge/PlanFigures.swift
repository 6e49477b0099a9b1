/// What every plan of rungs for one video's next chunks reads, worked out once per decision, and a plan's value:
/// each chunk's quality and switch weighted by the chance it is watched, each stall of the playing video by the
/// chance the viewer is still watching when it happens, and every byte paid for; the mean over throughput
/// scenarios. PDAS values one scenario, its prediction; `lookahead` several, and the boundary terms. Pure.
struct PlanFigures {
    let parameters: PDASPolicy.Parameters
    let isPlaying: Bool
    let startBuffer: Double
    let playingStillWatched: Double
    /// The rung the first planned chunk switches from: this video's last, or at its chunk 0 the previous video's
    /// last when the boundary is valued.
    let firstPrevious: Int?
    /// P(the score charges the first chunk's Mbps at the boundary), 0 unless the boundary is valued.
    let boundaryCharge: Double
    /// Per planned chunk: P(watched), and per rung its bytes; per scenario, chunk and rung the download ms.
    let watched: [Double]
    let bytes: [[Double]]
    let milliseconds: [[[Double]]]
    static let mbps = MMGCRates.kbps.map { $0 / 1000 }

    /// - Parameter scenarios: throughputs in kbps, each equally likely.
    init(plan: PDASPlan, video: Int, chunks: Int, scenarios: [Double], valuesBoundary: Bool) {
        let view = plan.view
        parameters = plan.parameters
        isPlaying = video == view.playing
        startBuffer = Double(view.bufferMilliseconds(view.playing))
        playingStillWatched = view.hasChunkLeft(view.playing) ? plan.nextChunkProbability(view.playing) : 0
        let own = view.rungs.indices.contains(video) ? view.rungs[video].last : nil
        let before =
            valuesBoundary && video > 0 && view.rungs.indices.contains(video - 1) ? view.rungs[video - 1].last : nil
        firstPrevious = own ?? before
        boundaryCharge = valuesBoundary ? plan.boundaryChargeProbability(video) : 0
        let first = view.downloaded[video]
        watched = (0..<chunks).map { plan.watchProbability(video, chunk: first + $0) }
        let bytes = (0..<chunks).map { k in (0..<3).map { Double(view.videos[video].chunkBytes[$0][first + k]) } }
        self.bytes = bytes
        milliseconds = scenarios.map { kbps in bytes.map { $0.map { $0 * 8 / kbps + MMGCSession.rttMilliseconds } } }
    }

    /// The first rung of the plan with the best value; the lower rung on a tie; 0 with nothing to plan.
    func bestFirstRung() -> Int {
        guard !watched.isEmpty, !milliseconds.isEmpty else { return 0 }
        var best = (value: -Double.infinity, rung: 0)
        RungPlans.forEach(count: watched.count) { plan in
            let value = value(plan)
            if value > best.value { best = (value, plan[0]) }
        }
        return best.rung
    }

    /// The plan's value, averaged over the scenarios.
    func value(_ plan: [Int]) -> Double {
        var total = 0.0
        for scenario in milliseconds.indices { total += value(plan, scenario: scenario) }
        return total / Double(milliseconds.count)
    }

    private func value(_ plan: [Int], scenario: Int) -> Double {
        var buffer = startBuffer
        var previous = firstPrevious
        var value = -boundaryCharge * Self.mbps[plan[0]]
        for (k, rung) in plan.enumerated() {
            let download = milliseconds[scenario][k][rung]
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
