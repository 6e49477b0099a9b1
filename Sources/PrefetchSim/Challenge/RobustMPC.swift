/// The challenge's MPC module (`simulator/mpc_module.py`) as its no_save baseline calls it: every plan of rungs
/// for the next `horizon` chunks, valued at Mbps played − 4.3 × rebuffer s − Mbps switched, with no RTT; the
/// last plan of the best value wins ties (itertools order), and its first rung is the answer.
enum RobustMPC {
    static let rebufferPenalty = 4.3

    /// - Parameter bytes: the size of chunk `offset` (0 = the next to download) at `rung`.
    static func firstRung(
        horizon: Int, bufferMilliseconds: Double, previousRung: Int, throughputMBps: Double,
        bytes: (_ rung: Int, _ offset: Int) -> Int
    ) -> Int {
        let kbps = [750, 1200, 1850]
        guard horizon > 0 else { return 0 }
        var best = -Double.infinity
        var answer = 0
        // The module never resets its "last quality" between plans: plan n starts from plan n−1's last rung.
        var last = previousRung
        RungPlans.forEach(count: horizon) { plan in
            var rebuffer = 0.0
            var buffer = bufferMilliseconds
            var played = 0
            var switched = 0
            for (offset, rung) in plan.enumerated() {
                let download = 1000 * (Double(bytes(rung, offset)) / 1_000_000) / throughputMBps
                if buffer < download {
                    rebuffer += download - buffer
                    buffer = 0
                } else {
                    buffer -= download
                }
                buffer += 1000
                played += kbps[rung]
                switched += abs(kbps[rung] - kbps[last])
                last = rung
            }
            let value = Double(played) / 1000 - rebufferPenalty * rebuffer / 1000 - Double(switched) / 1000
            if value >= best {
                best = value
                answer = plan[0]
            }
        }
        return answer
    }
}
