import Foundation
import MediaFixtures
import Testing

/// `reel simulate --users challenge:N`: the challenge's own users, and the mistakes a user of it can make.
@Suite(.timeLimit(.minutes(5))) struct SimulateChallengeUsersTests {
    static let data: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("shared/data/prefetch/mmgc2022").path
        return FileManager.default.fileExists(atPath: path + "/user_ret") ? path : nil
    }()

    @Test(arguments: [
        (["--users", "challenge:0"], "takes N from 1 to 1001"),
        (["--users", "challenge:2", "--seed", "4294967296"], "too large for challenge users"),
        (["--users", "sample1"], "takes sample0, a positive number, challenge:N or challenge-after-sample0:N"),
    ])
    func aBadUserSpellingIsAUsageError(extra: [String], message: String) async throws {
        let directory = try TemporaryDirectory()
        let trace = directory.file("trace")
        try "0 1\n1 1\n".write(toFile: trace, atomically: true, encoding: .utf8)
        let run = try await ReelProcess.run(
            ["simulate", "--mode", "mmgc", "--policy", "no_save", "--network", trace, "--catalog", directory.path]
                + extra)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test(.enabled(if: data != nil, "needs ../shared/data/prefetch"))
    func challengeUsersScoreOnTheChallengesDataAndNeedItsCurves() async throws {
        let data = try #require(Self.data)
        let common = [
            "simulate", "--mode", "mmgc", "--policy", "no_save", "--network", data + "/network_traces/high",
            "--catalog", data + "/short_video_size", "--users", "challenge:2", "--seed", "42",
        ]
        let run = try await ReelProcess.run(common + ["--retention", data + "/user_ret", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        #expect(report["users"] as? String == "challenge:2")
        #expect(report["traces"] as? Int == 20)
        #expect((report["score"] as? Double)?.isFinite == true)
        let bare = try await ReelProcess.run(common)
        #expect(bare.status == 64, "\(bare.stderr)")
        #expect(bare.stderr.contains("challenge users are drawn from retention curves (--retention)"), "\(bare.stderr)")
    }
}
