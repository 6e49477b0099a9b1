import Foundation
import MediaFixtures
import Testing

/// The hostile corpus through the worker, once with the job sandbox off and once on (issue 62): every upload gets
/// the same answer (state and reason) both ways, and every job that ran says which sandbox it ran in.
@Suite(.timeLimit(.minutes(15))) struct SandboxedHostileInputTests {
    /// By upload name: `state/reason` of its job, and the sandbox its `--json` line names ("-" for none).
    func answers(
        _ files: [(name: String, bytes: [UInt8])], sandbox: String
    ) async throws -> (answers: [String: String], sandboxes: [String: String]) {
        let harness = try WorkerHarness()
        for (name, bytes) in files { try harness.drop(name, bytes) }
        let result = try await harness.runOnce(["--job-sandbox", sandbox])
        #expect(result.status == 0, "the worker did not survive: \(result.stderr.suffix(2000))")
        var answers: [String: String] = [:], sandboxes: [String: String] = [:]
        for line in harness.jsonLines(result.stdout) {
            guard let file = line["file"] as? String, let state = line["state"] as? String else { continue }
            answers[file] = state + "/" + ((line["reason"] as? String) ?? "-")
            sandboxes[file] = (line["sandbox"] as? String) ?? "-"
        }
        #expect(answers.count == files.count, "\(files.count) uploads, \(answers.count) answers: \(result.stdout)")
        return (answers, sandboxes)
    }

    @Test func hostileUploadsGetTheSameAnswersInsideTheSandbox() async throws {
        let files =
            HostileCorpus.files(url: "http://127.0.0.1:9", secret: "/etc/hostname") + (try HostileCorpus.fuzzMedia())
        let unconfined = try await answers(files, sandbox: "off")
        let confined = try await answers(files, sandbox: "auto")
        #expect(confined.answers == unconfined.answers)
        // Every upload is a regular file, so each ran in a job of its own, and every job was confined.
        let ran = confined.sandboxes.filter { $0.value != "-" }
        #expect(ran.count == files.count, "\(confined.sandboxes)")
        for (file, protection) in ran {
            #expect(["landlock+seccomp", "namespaces+seccomp"].contains(protection), "\(file): \(protection)")
        }
        #expect(Set(unconfined.sandboxes.filter { $0.value != "-" }.keys) == Set(ran.keys))
        #expect(unconfined.sandboxes.values.allSatisfy { $0 == "none" || $0 == "-" }, "\(unconfined.sandboxes)")
        // Real media among the seeds still publishes in the sandbox.
        #expect(confined.answers.values.contains { $0.hasPrefix("published/") }, "\(confined.answers)")
    }
}
