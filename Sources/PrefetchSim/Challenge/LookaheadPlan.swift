/// One `lookahead` rung decision: every plan of rungs for the target's next chunks, valued in each throughput
/// scenario as PDAS values it at its one prediction, plus the boundary terms, and averaged. Pure.
struct LookaheadPlan {
    /// PDAS's buffers and horizons for this snapshot.
    let buffers: PDASPlan
    /// Throughputs, kbps, each equally likely.
    let scenarios: [Double]
    let valuesBoundary: Bool

    /// The first rung of the plan with the best mean value; the lower rung on a tie.
    func rung(for video: Int) -> Int { figures(video, chunks: buffers.horizon(video)).bestFirstRung() }

    /// The mean value of fetching `plan`'s rungs for `video`'s next chunks back to back.
    func expectedValue(video: Int, plan: [Int]) -> Double { figures(video, chunks: plan.count).value(plan) }

    private func figures(_ video: Int, chunks: Int) -> PlanFigures {
        PlanFigures(plan: buffers, video: video, chunks: chunks, scenarios: scenarios, valuesBoundary: valuesBoundary)
    }
}
