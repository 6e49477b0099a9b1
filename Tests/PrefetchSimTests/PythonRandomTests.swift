import PrefetchSim
import Testing

/// CPython's `random` with integer seeds: the values below were printed by CPython 3.11 (and 3.7 to 3.10 agree).
@Suite(.timeLimit(.minutes(1))) struct PythonRandomTests {
    @Test func seedsAndRandomAgreeWithCPython() {
        var random = PythonRandom(seed: 42)
        #expect(
            (0..<3).map { _ in random.random() } == [0.6394267984578837, 0.025010755222666936, 0.27502931836911926])
        var zero = PythonRandom(seed: 0)
        #expect(zero.random() == 0.8444218515250481)
        // Past 32 bits the seed is two words, least significant first.
        var wide = PythonRandom(seed: (1 << 32) + 5)
        #expect(wide.random() == 0.15727238718789782)
    }

    @Test func uniformIsAPlusTheSpanTimesRandom() {
        var random = PythonRandom(seed: 7)
        #expect(random.uniform(3000, 4000) == 3323.8327648331624)
    }
}
