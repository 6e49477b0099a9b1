/// MT19937, the generator behind both CPython's `random` and NumPy's legacy `RandomState`: the MM'22 challenge draws
/// its users from both, so Reel reproduces its draws only with the same generator, seeded the same two ways.
public struct MersenneTwister: Sendable {
    private static let size = 624
    private static let shift = 397
    private var words: [UInt32]
    private var index: Int

    /// Matsumoto and Nishimura's `init_genrand`: what NumPy's `seed(n)` does with one integer.
    public init(seed: UInt32) {
        words = [UInt32](repeating: 0, count: Self.size)
        words[0] = seed
        for i in 1..<Self.size {
            words[i] = 1_812_433_253 &* (words[i - 1] ^ (words[i - 1] >> 30)) &+ UInt32(i)
        }
        index = Self.size
    }

    /// `init_by_array`: what CPython's `random.seed(n)` does with the 32-bit words of |n|, least significant first.
    public init(key: [UInt32]) {
        self.init(seed: 19_650_218)
        let key = key.isEmpty ? [0] : key
        var i = 1
        var j = 0
        for _ in 0..<max(Self.size, key.count) {
            words[i] = (words[i] ^ ((words[i - 1] ^ (words[i - 1] >> 30)) &* 1_664_525)) &+ key[j] &+ UInt32(j)
            i += 1
            j += 1
            if i >= Self.size {
                words[0] = words[Self.size - 1]
                i = 1
            }
            if j >= key.count { j = 0 }
        }
        for _ in 0..<(Self.size - 1) {
            words[i] = (words[i] ^ ((words[i - 1] ^ (words[i - 1] >> 30)) &* 1_566_083_941)) &- UInt32(i)
            i += 1
            if i >= Self.size {
                words[0] = words[Self.size - 1]
                i = 1
            }
        }
        words[0] = 0x8000_0000
    }

    /// The next 32 bits (`genrand_int32`).
    public mutating func next() -> UInt32 {
        if index >= Self.size { twist() }
        var y = words[index]
        index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C_5680
        y ^= (y << 15) & 0xEFC6_0000
        y ^= y >> 18
        return y
    }

    /// A double in [0, 1) from two draws, 53 bits (`genrand_res53`): CPython's `random()` and NumPy's
    /// `random_sample()` both.
    public mutating func nextDouble() -> Double {
        let high = Double(next() >> 5)
        let low = Double(next() >> 6)
        return (high * 67_108_864 + low) / 9_007_199_254_740_992
    }

    private mutating func twist() {
        for k in 0..<Self.size {
            let y = (words[k] & 0x8000_0000) | (words[(k + 1) % Self.size] & 0x7FFF_FFFF)
            words[k] = words[(k + Self.shift) % Self.size] ^ (y >> 1) ^ (y & 1 == 0 ? 0 : 0x9908_B0DF)
        }
        index = 0
    }
}
