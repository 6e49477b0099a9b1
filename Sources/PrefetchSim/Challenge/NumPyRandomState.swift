/// The calls of NumPy's legacy `np.random` (`RandomState`) that the MM'22 challenge makes, drawing what NumPy draws:
/// `seed` with one integer (also a one-element array, which NumPy squeezes to one), `randint(high)` and `choice(a, p)`.
public struct NumPyRandomState: Sendable {
    /// Why `choice` refused its probabilities, as NumPy's `ValueError` says.
    public enum ChoiceError: Error, Equatable, CustomStringConvertible {
        case empty
        case negative(index: Int)
        case sumIsNotOne(Double)

        public var description: String {
            switch self {
            case .empty: "a cannot be empty unless no samples are taken"
            case .negative(let index): "probabilities are not non-negative (p[\(index)] < 0)"
            case .sumIsNotOne(let sum): "probabilities do not sum to 1 (they sum to \(sum))"
            }
        }
    }

    private var twister: MersenneTwister

    /// `np.random.seed(seed)`.
    public init(seed: UInt32) { twister = MersenneTwister(seed: seed) }

    /// `np.random.randint(high)`: an integer in 0..<high, by NumPy's masked rejection over 32-bit draws.
    public mutating func randint(below high: Int) -> Int {
        precondition(high > 0 && high <= 1 << 32, "randint's range is 1...2^32 values")
        let largest = UInt32(high - 1)
        guard largest > 0 else { return 0 }
        var mask = largest
        for shift in [1, 2, 4, 8, 16] as [UInt32] { mask |= mask >> shift }
        while true {
            let value = twister.next() & mask
            if value <= largest { return Int(value) }
        }
    }

    /// `np.random.randint(high, size=count)`, in NumPy's (row-major) order.
    public mutating func randint(below high: Int, count: Int) -> [Int] { (0..<count).map { _ in randint(below: high) } }

    /// `np.random.random_sample()`.
    public mutating func randomSample() -> Double { twister.nextDouble() }

    /// `np.random.choice(len(p), p=p)`: the index whose cumulative probability (normalised by its last) first exceeds
    /// one uniform draw. Refuses what NumPy refuses: no probabilities, a negative one, or a sum off 1 by more than
    /// √ε.
    public mutating func choice(probabilities p: [Double]) throws(ChoiceError) -> Int {
        guard !p.isEmpty else { throw .empty }
        if let index = p.firstIndex(where: { $0 < 0 }) { throw .negative(index: index) }
        let sum = Self.kahanSum(p)
        guard abs(sum - 1) <= Double.ulpOfOne.squareRoot() else { throw .sumIsNotOne(sum) }
        var cumulative = [Double]()
        cumulative.reserveCapacity(p.count)
        var running = 0.0
        for value in p {
            running += value
            cumulative.append(running)
        }
        let last = cumulative[p.count - 1]
        let u = randomSample()
        // searchsorted(side="right") on the normalised cumulative sums.
        return cumulative.firstIndex { $0 / last > u } ?? p.count
    }

    /// NumPy's `kahan_sum`, which `choice` checks the probabilities' sum with.
    static func kahanSum(_ values: [Double]) -> Double {
        var sum = values[0]
        var compensation = 0.0
        for value in values.dropFirst() {
            let y = value - compensation
            let t = sum + y
            compensation = (t - sum) - y
            sum = t
        }
        return sum
    }
}
