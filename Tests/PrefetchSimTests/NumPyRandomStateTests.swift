import PrefetchSim
import Testing

/// NumPy's legacy `np.random`: the values below were printed by NumPy 2.4 (`RandomState` is frozen at 1.16's draws).
@Suite(.timeLimit(.minutes(1))) struct NumPyRandomStateTests {
    @Test func randintDrawsWhatNumPyDraws() {
        var state = NumPyRandomState(seed: 42)
        #expect(state.randint(below: 100, count: 14) == [51, 92, 14, 71, 60, 20, 82, 86, 74, 74, 87, 99, 23, 2])
        var zero = NumPyRandomState(seed: 0)
        #expect(zero.randint(below: 10_000, count: 5) == [2732, 9845, 3264, 4859, 9225])
        #expect(zero.randint(below: 3, count: 8) == [1, 2, 0, 2, 0, 0, 0, 2])
    }

    @Test func aRangeOfOneValueTakesNoDraw() {
        var state = NumPyRandomState(seed: 1)
        #expect(state.randint(below: 1, count: 3) == [0, 0, 0])
        #expect(state.randomSample() == 0.417022004702574)
    }

    @Test func randomSampleIsTheFiftyThreeBitDouble() {
        var state = NumPyRandomState(seed: 5)
        #expect([state.randomSample(), state.randomSample()] == [0.22199317108973948, 0.8707323061773764])
    }

    @Test(arguments: zip(0..<10, [2, 1, 1, 2, 2, 1, 2, 0, 2, 0]))
    func choiceAgreesWithNumPy(seed: Int, index: Int) throws {
        var state = NumPyRandomState(seed: UInt32(seed))
        #expect(try state.choice(probabilities: [0.2, 0.3, 0.5]) == index)
    }

    @Test func choiceRefusesWhatNumPyRefuses() {
        var state = NumPyRandomState(seed: 0)
        #expect(throws: NumPyRandomState.ChoiceError.empty) { try state.choice(probabilities: []) }
        #expect(throws: NumPyRandomState.ChoiceError.negative(index: 1)) {
            try state.choice(probabilities: [0.6, -0.1, 0.5])
        }
        #expect(throws: NumPyRandomState.ChoiceError.sumIsNotOne(0.9)) { try state.choice(probabilities: [0.4, 0.5]) }
        // Within √ε of 1 is accepted, as NumPy accepts it.
        #expect((try? state.choice(probabilities: [0.5, 0.5 + 1e-9])) != nil)
        #expect(NumPyRandomState.ChoiceError.sumIsNotOne(0.9).description.contains("do not sum to 1"))
    }

    /// Every index comes out at the rate its probability says, and a zero never comes out.
    @Test func choiceFollowsItsProbabilities() throws {
        var state = NumPyRandomState(seed: 3)
        var counts = [0, 0, 0, 0]
        for _ in 0..<20_000 { counts[try state.choice(probabilities: [0.1, 0, 0.6, 0.3])] += 1 }
        #expect(counts[1] == 0)
        for (count, p) in zip(counts, [0.1, 0, 0.6, 0.3]) { #expect(abs(Double(count) / 20_000 - p) < 0.015) }
    }
}
