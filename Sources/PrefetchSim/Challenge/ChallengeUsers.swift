/// The MM'22 challenge's sampled users, drawn as its `run.py` (`test_user_samples`) and `user_module.py`
/// (`Retention`) draw them, so Reel's scores average over the same users as the challenge's and the papers'.
///
/// `np.random.seed(seed)`; 14 draws below 100 (the module's first `seeds`); then 1,001 sample seeds below 10,000.
/// User j: `np.random.seed(sample seed j)`, 14 draws below 10,000, a pair per video. Video k's watch time:
/// `np.random.seed(pair.0)`, an instant chosen with the retention curve's drops as probabilities, and unless it is
/// the last, a uniform point within its second from `random.seed(pair.1)`.
public enum ChallengeUsers {
    /// The challenge's session has seven videos, and one seed pair for each.
    public static let videosPerUser = 7
    /// `seed_for_sample` holds 1,001 seeds.
    public static let maximumUsers = 1001

    /// The module's own pairs (the 14 draws below 100): the user that `run.py` scores when it samples none, whose
    /// watch times are `MMGCRunner.sample0`.
    public static func moduleSeedPairs(seed: UInt32) -> [(numpy: UInt32, python: UInt64)] {
        var global = NumPyRandomState(seed: seed)
        return pairs(global.randint(below: 100, count: 2 * videosPerUser))
    }

    /// The seed pair of each video, for users 0..<count. `afterSample0`: `test_user_samples` called after the
    /// default user's run in the same process, as the data's reference table was made. Each `Retention` reseeds
    /// NumPy, so the sample seeds then come after the last one's: `seed(pair 6's NumPy seed)` and one choice.
    public static func seedPairs(
        users count: Int, seed: UInt32, afterSample0: Bool = false
    ) -> [[(numpy: UInt32, python: UInt64)]] {
        precondition((1...maximumUsers).contains(count), "the challenge draws 1 to 1,001 users")
        var global = NumPyRandomState(seed: seed)
        let module = pairs(global.randint(below: 100, count: 2 * videosPerUser))
        if afterSample0 {
            global = NumPyRandomState(seed: module[videosPerUser - 1].numpy)
            _ = global.randomSample()
        }
        let sampleSeeds = global.randint(below: 10_000, count: maximumUsers)
        return sampleSeeds.prefix(count).map { sampleSeed in
            var sample = NumPyRandomState(seed: UInt32(sampleSeed))
            return pairs(sample.randint(below: 10_000, count: 2 * videosPerUser))
        }
    }

    /// A `size=(7, 2)` draw read row by row: NumPy's seed, then Python's, for each video.
    private static func pairs(_ seeds: [Int]) -> [(numpy: UInt32, python: UInt64)] {
        (0..<videosPerUser).map { (UInt32(seeds[2 * $0]), UInt64(seeds[2 * $0 + 1])) }
    }

    /// Milliseconds one user watches a video whose retention is `retention` (at seconds 0, 1, …; the file's closing
    /// zero left out), as `Retention` computes it from one seed pair.
    public static func watchMilliseconds(
        retention: [Double], seeds: (numpy: UInt32, python: UInt64)
    ) throws(NumPyRandomState.ChoiceError) -> Int {
        // The file's rows with its closing zero: user_time = row * 1000, churn = 1 - rate, p = diff(churn).
        let churn = (retention + [0]).map { 1.0 - $0 }
        let drops = (0..<retention.count).map { churn[$0 + 1] - churn[$0] }
        var numpy = NumPyRandomState(seed: seeds.numpy)
        let index = try numpy.choice(probabilities: drops)
        let interval = Double(index) * 1000
        // The last instant (user_time[-2]) means the viewer stayed to the end.
        guard index != retention.count - 1 else { return Int(interval) }
        var python = PythonRandom(seed: seeds.python)
        return Int(python.uniform(interval, interval + 1000))
    }
}
