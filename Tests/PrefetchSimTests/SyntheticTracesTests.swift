import Foundation
import TestTraits
import Testing

@testable import PrefetchSim

/// `--network synthetic:N`: the training traces `lookahead`'s parameters were chosen on.
@Suite(.offThePool, .timeLimit(.minutes(1))) struct SyntheticTracesTests {
    @Test func theSameCountGivesTheSameTracesAndTraceKDoesNotDependOnIt() {
        let few = SyntheticTraces.make(count: 3)
        let more = SyntheticTraces.make(count: 8)
        #expect(few == SyntheticTraces.make(count: 3))
        #expect(Array(more.prefix(3)) == few)
        #expect(Set(more.map(\.mbps)).count == 8)
    }

    @Test func eachTraceIs600SecondsOfHalfSecondRowsWithItsOwnMean() throws {
        let traces = SyntheticTraces.make(count: 40)
        var means: [Double] = []
        for trace in traces {
            #expect(trace.times.count == 1200)
            #expect(zip(trace.times, trace.times.dropFirst()).allSatisfy { $1 - $0 == 0.5 })
            #expect(trace.mbps.allSatisfy { $0 >= 0.05 && $0.isFinite })
            // Outages: some rows at the floor, never most of them.
            let floor = trace.mbps.filter { $0 == 0.05 }.count
            #expect(floor < 300)
            means.append(trace.mbps.reduce(0, +) / Double(trace.mbps.count))
        }
        // Means spread over the range, slow links and fast ones both.
        #expect(means.contains { $0 < 1.2 })
        #expect(means.contains { $0 > 3 })
        #expect(means.allSatisfy { $0 > 0.1 && $0 < 20 })
    }

    @Test(arguments: ["synthetic:0", "synthetic:1001", "synthetic:", "synthetic:x", "synthetic:-3", "synthetic:2.5"])
    func aBadCountIsRefusedWithItsRange(spelling: String) {
        #expect {
            _ = try SyntheticTraces.count(parsing: spelling)
        } throws: { error in
            "\(error)".contains(spelling) && "\(error)".contains("from 1 to 1000")
        }
    }

    @Test func otherSpellingsAreNotSynthetic() throws {
        #expect(try SyntheticTraces.count(parsing: "/data/high") == nil)
        #expect(try SyntheticTraces.count(parsing: "synthetic:40") == 40)
        #expect(try MMGCData.network(at: "synthetic:2").count == 2)
    }
}
