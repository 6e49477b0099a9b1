/// The calls of CPython's `random` module that the MM'22 challenge makes: `seed` with an integer (or a NumPy integer,
/// which Python 3.10 and older seed from its hash, the same value) and `uniform`.
public struct PythonRandom: Sendable {
    private var twister: MersenneTwister

    /// `random.seed(seed)`: the 32-bit words of the integer, least significant first (one zero word for 0).
    public init(seed: UInt64) {
        var words: [UInt32] = []
        var rest = seed
        repeat {
            words.append(UInt32(truncatingIfNeeded: rest))
            rest >>= 32
        } while rest != 0
        twister = MersenneTwister(key: words)
    }

    /// `random.random()`.
    public mutating func random() -> Double { twister.nextDouble() }

    /// `random.uniform(a, b)`: `a + (b - a) * random()`, as CPython computes it.
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * random() }
}
