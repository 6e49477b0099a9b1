import PrefetchSim
import Testing

@Suite(.timeLimit(.minutes(1))) struct SimulatedUsersTests {
    @Test(arguments: [
        ("sample0", SimulatedUsers.sample0), ("1", .seeded(1)), ("50", .seeded(50)), ("challenge:1", .challenge(1)),
        ("challenge:50", .challenge(50)), ("challenge:1001", .challenge(1001)),
        ("challenge-after-sample0:1", .challengeAfterSample0(1)),
        ("challenge-after-sample0:50", .challengeAfterSample0(50)),
    ])
    func parsesEverySpelling(text: String, users: SimulatedUsers) throws {
        #expect(try SimulatedUsers(parsing: text) == users)
        #expect(users.spelling == text)
        let after = if case .challengeAfterSample0 = users { true } else { false }
        #expect(users.unscoredFirst == (after ? [MMGCRunner.sample0] : []))
    }

    @Test(arguments: ["", "0", "-3", "+5", "05", "five", "sample1", "challenge", "٣"])
    func refusesWhatIsNotAUserSpelling(text: String) {
        #expect(throws: SimulatedUsers.ParseError.unknown(text)) { try SimulatedUsers(parsing: text) }
        #expect(SimulatedUsers.ParseError.unknown(text).description.contains("challenge:N"))
    }

    @Test(arguments: [
        "challenge:", "challenge:0", "challenge:1002", "challenge:+1", "challenge:007", "challenge:x",
        "challenge-after-sample0:0", "challenge-after-sample0:1002", "challenge-after-sample0:",
    ])
    func refusesAChallengeCountOutsideItsSeeds(text: String) {
        #expect(throws: SimulatedUsers.ParseError.challengeCount(text)) { try SimulatedUsers(parsing: text) }
        #expect(SimulatedUsers.ParseError.challengeCount(text).description.contains("1001"))
    }

    static let videos = (0..<7).map {
        ShortVideo(
            name: "v\($0)", chunkBytes: [[Int]](repeating: [1000, 1000, 1000], count: 3), retention: [1, 0.6, 0.3])
    }

    @Test func challengeUsersNeedCurvesAndANumPySeed() throws {
        let bare = (0..<7).map {
            ShortVideo(name: "b\($0)", chunkBytes: [[Int]](repeating: [1000], count: 3), retention: [])
        }
        #expect(throws: SimulatedUsers.ParseError.needsRetention(video: "b0")) {
            try SimulatedUsers.challenge(2).watchTimes(videos: bare, seed: 42)
        }
        #expect(throws: SimulatedUsers.ParseError.seedTooLarge(1 << 32)) {
            try SimulatedUsers.challenge(2).watchTimes(videos: Self.videos, seed: 1 << 32)
        }
        let bent = Self.videos.enumerated().map { index, video in
            index == 3 ? ShortVideo(name: "bent", chunkBytes: video.chunkBytes, retention: [0.5, 0.2]) : video
        }
        let error = #expect(throws: SimulatedUsers.ParseError.self) {
            try SimulatedUsers.challenge(2).watchTimes(videos: bent, seed: 42)
        }
        #expect(error?.description.hasPrefix("video bent's retention curve") == true)
        #expect(error?.description.contains("do not sum to 1") == true)
    }

    @Test func eachKindGivesOneWatchTimePerUserAndVideo() throws {
        #expect(try SimulatedUsers.sample0.watchTimes(videos: Self.videos, seed: 9) == [MMGCRunner.sample0])
        for users in [SimulatedUsers.seeded(4), .challenge(4)] {
            let times = try users.watchTimes(videos: Self.videos, seed: 42)
            #expect(times.count == users.count && times.allSatisfy { $0.count == 7 })
            #expect(times.joined().allSatisfy { (0...3000).contains($0) })
        }
        // The same seed, the same users.
        #expect(
            try SimulatedUsers.challenge(3).watchTimes(videos: Self.videos, seed: 7)
                == SimulatedUsers.challenge(3).watchTimes(videos: Self.videos, seed: 7))
    }
}
