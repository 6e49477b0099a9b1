import Foundation
import PrefetchSim
import Testing

/// The challenge's users, against draws printed by the challenge's own calls (NumPy 2.4 and CPython, made the way
/// `run.py` and `user_module.py` make them) and against `MMGCRunner.sample0`, which came from the challenge's log.
@Suite(.timeLimit(.minutes(1))) struct ChallengeUsersTests {
    @Test func seedPairsAreDrawnInTheChallengesOrder() {
        let pairs = ChallengeUsers.seedPairs(users: 50, seed: 42)
        #expect(pairs.count == 50)
        let flat = { (user: [(numpy: UInt32, python: UInt64)]) in user.flatMap { [Int($0.numpy), Int($0.python)] } }
        #expect(flat(pairs[0]) == [3010, 4606, 849, 9809, 2545, 6295, 7811, 5920, 6171, 1007, 6327, 9411, 8936, 1239])
        #expect(flat(pairs[1]) == [4828, 604, 7155, 9495, 1781, 9641, 7118, 4227, 5122, 5144, 798, 2680, 4831, 9412])
        #expect(flat(pairs[49]) == [5125, 1864, 8307, 7945, 6240, 8047, 2942, 1144, 471, 5009, 1066, 540, 1079, 6891])
        #expect(
            flat(ChallengeUsers.moduleSeedPairs(seed: 42)) == [51, 92, 14, 71, 60, 20, 82, 86, 74, 74, 87, 99, 23, 2])
        // The first users do not depend on how many are asked for.
        #expect(flat(ChallengeUsers.seedPairs(users: 2, seed: 42)[1]) == flat(pairs[1]))
    }

    /// A curve of five seconds: seeds s and 10,000 − s, as printed by the challenge's calls.
    @Test func aWatchTimeIsAnInstantThenAPointInItsSecondOrTheEnd() throws {
        let curve = [1.0, 0.8, 0.55, 0.5, 0.3]
        let watched = try (0..<12).map {
            try ChallengeUsers.watchMilliseconds(retention: curve, seeds: (UInt32($0), UInt64(10_000 - $0)))
        }
        #expect(watched == [3577, 1834, 1090, 3286, 4000, 1029, 4000, 262, 4000, 0, 4000, 31])
    }

    /// Every seed gives a time inside the video, and the last instant only as the exact end.
    @Test func everyWatchTimeLiesInsideTheVideo() throws {
        let curve = [1.0, 0.9, 0.9, 0.2, 0.1, 0.05]
        var seen = Set<Int>()
        for seed in 0..<2000 {
            let ms = try ChallengeUsers.watchMilliseconds(
                retention: curve, seeds: (UInt32(seed), UInt64(seed * 7)))
            #expect((0..<5000).contains(ms) || ms == 5000)
            seen.insert(ms / 1000)
        }
        // No one leaves in the second where no one leaves (0.9 to 0.9).
        #expect(!seen.contains(1) && seen.isSuperset(of: [0, 2, 3, 4, 5]))
    }

    @Test func aCurveThatDoesNotFallToZeroFromOneIsRefused() {
        #expect(throws: NumPyRandomState.ChoiceError.self) {
            try ChallengeUsers.watchMilliseconds(retention: [0.9, 0.5], seeds: (1, 1))
        }
    }

    static let data: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("shared/data/prefetch/mmgc2022").path
        return FileManager.default.fileExists(atPath: path + "/user_ret") ? path : nil
    }()

    @Test(.enabled(if: data != nil, "needs ../shared/data/prefetch"))
    func theChallengesDataGivesItsDefaultUserAndItsSampledOnes() throws {
        let data = try #require(Self.data)
        let catalog = try MMGCData.catalog(at: data + "/short_video_size", retention: data + "/user_ret")
        let videos = MMGCRunner(catalog: catalog, traces: []).sessionVideos
        let module = try zip(videos, ChallengeUsers.moduleSeedPairs(seed: 42)).map {
            try ChallengeUsers.watchMilliseconds(retention: $0.retention, seeds: $1)
        }
        #expect(module == MMGCRunner.sample0)
        let users = try SimulatedUsers.challenge(50).watchTimes(videos: videos, seed: 42)
        #expect(users.count == 50)
        #expect(users[0] == [17000, 26000, 1447, 5150, 33855, 1088, 1074])
        #expect(users[1] == [64, 9742, 37000, 4847, 5291, 6000, 11233])
        #expect(users[49] == [1064, 10548, 1471, 1510, 5987, 4613, 1087])
        // Drawn after the default user's run, as the reference table's samples50 were (values printed by CPython
        // through the challenge's own Retention class; their mean watch time is the table's 80,411.22 ms).
        let after = try SimulatedUsers.challengeAfterSample0(50).watchTimes(videos: videos, seed: 42)
        #expect(after[0] == [17000, 25188, 3939, 4867, 4173, 6000, 125_000])
        #expect(after[1] == [13002, 5561, 2670, 6642, 2511, 1817, 398])
        #expect(after[49] == [4873, 13480, 37000, 1074, 1452, 2516, 1273])
        #expect(after.joined().reduce(0, +) == 4_020_561)
    }
}
