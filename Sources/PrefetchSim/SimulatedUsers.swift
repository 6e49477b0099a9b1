/// Who watches in a simulation (`reel simulate --users`): the challenge's default user, users seeded by Reel's own
/// sampler, or users drawn exactly as the MM'22 challenge draws them, so scores compare with the challenge's and the
/// papers'.
public enum SimulatedUsers: Equatable, Sendable {
    /// `sample0`: the challenge's default user (`MMGCRunner.sample0`).
    case sample0
    /// `N`: N users from `UserSampler` (SplitMix64).
    case seeded(Int)
    /// `challenge:N`: users 0..<N of the challenge's `test_user_samples` (`ChallengeUsers`).
    case challenge(Int)
    /// `challenge-after-sample0:N`: the same, with `test_user_samples` called after the default user's run in the
    /// same process. This is how the data's reference table drew its `samples50` users; the default user's run
    /// also carries `last_chunk_bitrate` into theirs (`unscoredFirst`).
    case challengeAfterSample0(Int)

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case unknown(String)
        case challengeCount(String)
        case seedTooLarge(UInt64)
        case needsRetention(video: String)
        case curve(video: String, NumPyRandomState.ChoiceError)

        public var description: String {
            switch self {
            case .unknown(let text):
                "--users takes sample0, a positive number, challenge:N or challenge-after-sample0:N, not \"\(text.prefix(40))\""
            case .challengeCount(let text):
                "--users challenge:N (or challenge-after-sample0:N) takes N from 1 to \(ChallengeUsers.maximumUsers) (the challenge draws that many "
                    + "seeds), not \"\(text.prefix(40))\""
            case .seedTooLarge(let seed):
                "--seed \(seed) is too large for challenge users: NumPy's seed is 0...\(UInt32.max)"
            case .needsRetention(let video):
                "challenge users are drawn from retention curves (--retention); video \(video) has none"
            case .curve(let video, let error):
                "video \(video)'s retention curve cannot be sampled as the challenge samples it: \(error)"
            }
        }
    }

    public init(parsing text: String) throws(ParseError) {
        if text == "sample0" {
            self = .sample0
        } else if let prefix = ["challenge:", "challenge-after-sample0:"].first(where: { text.hasPrefix($0) }) {
            let count = text.dropFirst(prefix.count)
            guard count.allSatisfy(\.isASCII), let n = Int(count), (1...ChallengeUsers.maximumUsers).contains(n),
                String(n) == count
            else { throw .challengeCount(text) }
            self = prefix == "challenge:" ? .challenge(n) : .challengeAfterSample0(n)
        } else if text.allSatisfy(\.isASCII), let n = Int(text), n > 0, String(n) == text {
            self = .seeded(n)
        } else {
            throw .unknown(text)
        }
    }

    /// The spelling `init(parsing:)` reads.
    public var spelling: String {
        switch self {
        case .sample0: "sample0"
        case .seeded(let n): String(n)
        case .challenge(let n): "challenge:\(n)"
        case .challengeAfterSample0(let n): "challenge-after-sample0:\(n)"
        }
    }

    /// How many users.
    public var count: Int {
        switch self {
        case .sample0: 1
        case .seeded(let n), .challenge(let n), .challengeAfterSample0(let n): n
        }
    }

    /// Users run before these, carrying the challenge's `last_chunk_bitrate` into their sessions but not scored.
    public var unscoredFirst: [[Int]] {
        if case .challengeAfterSample0 = self { [MMGCRunner.sample0] } else { [] }
    }

    /// Each user's watch time (ms) of each video of the session.
    public func watchTimes(videos: [ShortVideo], seed: UInt64) throws(ParseError) -> [[Int]] {
        switch self {
        case .sample0:
            return [MMGCRunner.sample0]
        case .seeded(let n):
            return UserSampler(videos: videos).users(n, seed: seed)
        case .challenge(let n):
            return try Self.challengeUsers(n, afterSample0: false, videos: videos, seed: seed)
        case .challengeAfterSample0(let n):
            return try Self.challengeUsers(n, afterSample0: true, videos: videos, seed: seed)
        }
    }

    private static func challengeUsers(
        _ n: Int, afterSample0: Bool, videos: [ShortVideo], seed: UInt64
    ) throws(ParseError) -> [[Int]] {
        precondition(videos.count == ChallengeUsers.videosPerUser, "a challenge session has seven videos")
        if let bare = videos.first(where: { $0.retention.isEmpty }) { throw .needsRetention(video: bare.name) }
        guard let seed = UInt32(exactly: seed) else { throw .seedTooLarge(seed) }
        var users: [[Int]] = []
        for pairs in ChallengeUsers.seedPairs(users: n, seed: seed, afterSample0: afterSample0) {
            var watch: [Int] = []
            for (video, pair) in zip(videos, pairs) {
                do throws(NumPyRandomState.ChoiceError) {
                    watch.append(try ChallengeUsers.watchMilliseconds(retention: video.retention, seeds: pair))
                } catch {
                    throw .curve(video: video.name, error)
                }
            }
            users.append(watch)
        }
        return users
    }
}
