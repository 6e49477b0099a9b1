/// Seeded users: watch times drawn from each video's retention curve, reproducible from the seed.
public struct UserSampler: Sendable {
    /// SplitMix64: small, fast and the same on every platform, so a seed always gives the same users.
    struct Generator: RandomNumberGenerator, Sendable {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    public let videos: [ShortVideo]

    public init(videos: [ShortVideo]) { self.videos = videos }

    /// `count` users, each with one watch time (ms) per video: P(leave in [t, t+1)) = r(t) − r(t+1), uniform within
    /// the second; P(watch to the end) = r(N).
    public func users(_ count: Int, seed: UInt64) -> [[Int]] {
        var generator = Generator(state: seed)
        return (0..<count).map { _ in
            videos.map { video in
                let u = Double.random(in: 0..<1, using: &generator)
                let n = video.durationMilliseconds / 1000
                var cumulative = 0.0
                for t in 0..<n {
                    cumulative += video.retention(atSecond: t) - video.retention(atSecond: t + 1)
                    if u < cumulative {
                        return t * 1000 + Int(Double.random(in: 0..<1, using: &generator) * 1000)
                    }
                }
                return video.durationMilliseconds
            }
        }
    }
}
