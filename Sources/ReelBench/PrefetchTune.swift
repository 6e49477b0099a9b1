import ArgumentParser
import Dispatch
import Foundation
import PrefetchSim
import Synchronization

extension ReelBench {
    /// `reel-bench prefetch-tune`: how `lookahead`'s parameters were chosen (issue 34). Every combination of the
    /// grid runs on the training sets only (the HSDPA traces and `synthetic:N` by default, never the challenge's
    /// four), with users drawn as the challenge draws them, beside `pdas`; the table is sorted by the mean score
    /// gain over `pdas` across the sets, and the first row is the choice. Deterministic: the same grid always gives
    /// the same table.
    struct PrefetchTune: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prefetch-tune", abstract: "Choose lookahead's parameters on training traces.")

        @Option(name: .long, help: "The prefetch data folder (../shared/data/prefetch).") var data: String
        @Option(
            name: .long, parsing: .upToNextOption,
            help: "Training sets: hsdpa, synthetic:N, or a trace folder.")
        var train: [String] = ["hsdpa", "synthetic:40"]
        @Option(name: .long, help: "Users drawn as challenge:N.") var users = 20
        @Option(name: .long, help: "The challenge's RANDOM_SEED for the users.") var seed: UInt32 = 42
        @Option(name: .long, parsing: .upToNextOption, help: "Scenario discounts to try.")
        var discount: [Double] = [0.85, 0.9, 0.95]
        @Option(name: .long, parsing: .upToNextOption, help: "T_max values to try, seconds.")
        var tmax: [Double] = [2, 2.5, 3]
        @Option(name: .long, parsing: .upToNextOption, help: "Whether the boundary is valued: true, false.")
        var boundary: [Bool] = [true, false]
        @Option(name: .long, parsing: .upToNextOption, help: "Neighbour decays of T_max to try.")
        var decay: [Double] = [1]
        @Option(name: .long, parsing: .upToNextOption, help: "Whether b_th's C is the scenarios' mean: true, false.")
        var scenarioThreshold: [Bool] = [true, false]
        @Option(name: .long, parsing: .upToNextOption, help: "b_th scales to try, seconds.")
        var scale: [Double] = [3.5]
        @Option(name: .long, parsing: .upToNextOption, help: "Scenario counts to try, 1 to 5.")
        var scenarios: [Int] = [3, 5]
        @Option(
            name: .long, parsing: .upToNextOption,
            help: "T_max slopes to try: seconds more per Mbps below 2 Mbps, within 1...6 s.")
        var slope: [Double] = [0]
        @Option(name: .long, parsing: .upToNextOption, help: "The planner's cost per Mbit to try (the score's is 0.5).")
        var cost: [Double] = [0.5]
        @Option(
            name: .long, parsing: .upToNextOption,
            help: "The planner's penalty per stalled second (the score's is 1.85).")
        var rebuffer: [Double] = [MMGCSession.rebufferPenalty]
        @Option(name: .long, parsing: .upToNextOption, help: "b_th's distance exponents to try (the paper's is 0.15).")
        var distance: [Double] = [0.15]
        @Option(name: .long, parsing: .upToNextOption, help: "Chunks the MPC plans for the playing video, 1 to 8.")
        var horizon: [Int] = [5]

        func validate() throws {
            guard scenarios.allSatisfy({ (1...5).contains($0) }), horizon.allSatisfy({ (1...8).contains($0) }) else {
                throw ValidationError("--scenarios must be from 1 to 5 and --horizon from 1 to 8")
            }
            guard (1...1000).contains(users) else { throw ValidationError("--users must be from 1 to 1000") }
            guard discount.allSatisfy({ (0.1...2).contains($0) }), tmax.allSatisfy({ (0.5...20).contains($0) }) else {
                throw ValidationError("--discount must be in 0.1...2 and --tmax in 0.5...20 seconds")
            }
            guard slope.allSatisfy({ (-5...5).contains($0) }) else {
                throw ValidationError("--slope must be in -5...5 seconds per Mbps")
            }
            guard cost.allSatisfy({ (0...5).contains($0) }), rebuffer.allSatisfy({ (0...20).contains($0) }),
                distance.allSatisfy({ (0...5).contains($0) })
            else {
                throw ValidationError(
                    "--cost must be in 0...5 per Mbit, --rebuffer in 0...20 per second and --distance in 0...5")
            }
            guard !train.isEmpty, !discount.isEmpty, !tmax.isEmpty, !boundary.isEmpty else {
                throw ValidationError("--train, --discount, --tmax and --boundary each need a value")
            }
        }

        func run() throws {
            let catalog = try MMGCData.catalog(
                at: data + "/mmgc2022/short_video_size", retention: data + "/mmgc2022/user_ret")
            let sets = try train.map { name in
                let path = name == "hsdpa" ? data + "/traces/pensieve_hsdpa_norway_test" : name
                let runner = MMGCRunner(catalog: catalog, traces: try MMGCData.network(at: path))
                let people = try SimulatedUsers.challenge(users).watchTimes(
                    videos: runner.sessionVideos, seed: UInt64(seed))
                return (name: name, runner: runner, users: people)
            }
            let variants = grid()
            // One job per (policy, set): pdas first, then every variant.
            let jobs = sets.indices.flatMap { set in (0...variants.count).map { (set: set, variant: $0 - 1) } }
            let scores = Mutex([Double](repeating: .nan, count: jobs.count))
            DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
                let job = jobs[index]
                let set = sets[job.set]
                let score =
                    job.variant < 0
                    ? set.runner.run(PDASPolicy(), users: set.users).score
                    : set.runner.run(LookaheadPolicy(parameters: variants[job.variant]), users: set.users).score
                scores.withLock { $0[index] = score }
            }
            let table = scores.withLock { $0 }
            func score(set: Int, variant: Int) -> Double { table[set * (variants.count + 1) + variant + 1] }
            let gains = variants.indices.map { v in
                sets.indices.reduce(0.0) { $0 + score(set: $1, variant: v) - score(set: $1, variant: -1) }
                    / Double(sets.count)
            }
            print("Training sets \(train.joined(separator: ", ")); users challenge:\(users), seed \(seed).\n")
            print(
                "| discount | T_max | slope | boundary | decay | C from scenarios | b_th scale | scenarios | cost | rebuffer | distance | horizon | "
                    + train.joined(separator: " | ") + " | mean gain over pdas |")
            print(
                "|---|---|---|---|---|---|---|---|---|---|---|" + String(repeating: "---|", count: train.count) + "---|"
            )
            print(
                "| pdas | 3 | 0 | | 1 | | 3.5 | | 0.5 | 1.85 | 0.15 | 5 | "
                    + sets.indices.map { fmt(score(set: $0, variant: -1)) }.joined(separator: " | ") + " | 0 |")
            for v in variants.indices.sorted(by: { gains[$0] > gains[$1] || (gains[$0] == gains[$1] && $0 < $1) }) {
                let p = variants[v]
                let cells = sets.indices.map { fmt(score(set: $0, variant: v)) }
                print(
                    "| \(p.scenarioDiscount) | \(p.buffers.maximumBufferSeconds) | \(p.buffers.maximumBufferSlope) | \(p.valuesBoundary) | \(p.buffers.neighbourDecay) | \(p.thresholdFromScenarios) | \(p.buffers.thresholdScale) | \(p.scenarioCount) | \(p.buffers.costPerMegabit) | \(p.buffers.rebufferPenalty) | \(p.buffers.distanceExponent) | \(p.buffers.playingHorizon) | "
                        + cells.joined(separator: " | ") + " | \(fmt(gains[v])) |")
            }
        }

        /// Every combination of the options' values, the first option outermost.
        private func grid() -> [LookaheadPolicy.Parameters] {
            var variants = [LookaheadPolicy.Parameters()]
            func vary<Value>(_ values: [Value], _ apply: (inout LookaheadPolicy.Parameters, Value) -> Void) {
                variants = variants.flatMap { base in
                    values.map { value in
                        var parameters = base
                        apply(&parameters, value)
                        return parameters
                    }
                }
            }
            vary(discount) { $0.scenarioDiscount = $1 }
            vary(tmax) { $0.buffers.maximumBufferSeconds = $1 }
            vary(boundary) { $0.valuesBoundary = $1 }
            vary(decay) { $0.buffers.neighbourDecay = $1 }
            vary(scenarioThreshold) { $0.thresholdFromScenarios = $1 }
            vary(scale) { $0.buffers.thresholdScale = $1 }
            vary(scenarios) { $0.scenarioCount = $1 }
            vary(slope) { $0.buffers.maximumBufferSlope = $1 }
            vary(cost) { $0.buffers.costPerMegabit = $1 }
            vary(rebuffer) { $0.buffers.rebufferPenalty = $1 }
            vary(distance) { $0.buffers.distanceExponent = $1 }
            vary(horizon) { $0.buffers.playingHorizon = $1 }
            return variants
        }

        private func fmt(_ value: Double) -> String { String(format: "%.3f", value) }
    }
}
