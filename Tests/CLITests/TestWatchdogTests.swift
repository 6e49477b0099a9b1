import Foundation
import MediaFixtures
import Testing

/// `scripts/test-watchdog.py` (what `make test` runs `swift test` under): it ends a silent run, unless the silence is
/// a wait a test announced (`TestWaits`) and that wait is within its bound.
@Suite(.timeLimit(.minutes(3))) struct TestWatchdogTests {
    static let watchdog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/test-watchdog.py").path

    /// Runs `script` (bash) under the watchdog with 2 s of silence allowed and 1 s of grace past a wait's bound.
    static func watched(_ script: String) async throws -> (status: Int32, stderr: String, seconds: Double) {
        let start = ContinuousClock.now
        let run = try await ChildProcess.run(
            [
                "/usr/bin/python3", watchdog, "--silence", "2", "--wait-grace", "1", "--event-stream", "none",
                "--gdb-timeout", "5", "--kill-grace", "2", "--", "/bin/bash", "-c", script,
            ], within: .seconds(60))
        let elapsed = ContinuousClock.now - start
        return (run.status, run.stderr, Double(elapsed.components.seconds))
    }

    /// A wait line as TestWaits writes it: id, deadline (Unix seconds), what.
    static func announce(_ id: String, seconds: Int, _ what: String) -> String {
        "printf '%s\\t%s\\t%s\\n' \(id) $(( $(date +%s) + \(seconds) )) '\(what)' >> \"$REEL_TEST_WAITS\""
    }

    @Test func silenceOutsideAnyWaitEndsTheRun() async throws {
        let run = try await Self.watched("echo start; sleep 30")
        #expect(run.status == 124, "\(run.stderr)")
        #expect(run.stderr.contains("no output for 2 s"))
        #expect(run.seconds < 25)
    }

    @Test func silenceInsideAnAnnouncedWaitIsAllowedUntilItsBound() async throws {
        let run = try await Self.watched(
            Self.announce("w1", seconds: 20, "a slow takeover")
                + "; sleep 6; printf 'w1\\tdone\\n' >> \"$REEL_TEST_WAITS\"; echo end")
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func aWaitPastItsBoundNoLongerHoldsTheWatchdogOffAndIsNamed() async throws {
        let run = try await Self.watched(Self.announce("w2", seconds: 1, "a lost continuation") + "; sleep 30")
        #expect(run.status == 124, "\(run.stderr)")
        #expect(run.stderr.contains("a lost continuation: its bound passed"), "\(run.stderr)")
        #expect(run.seconds < 25)
    }

    @Test func testWaitsWritesAStartAndAnEndLine() async throws {
        let directory = try TemporaryDirectory()
        let log = directory.file("waits")
        let before = Date().timeIntervalSince1970
        let value = try await TestWaits.during("the\tserver\nto start", seconds: 90, log: log) {
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 1)
            return String(lines[0])
        }
        let fields = value.split(separator: "\t").map(String.init)
        #expect(fields.count == 3, "\(value)")
        let deadline = try #require(Double(fields[1]))
        // Written to the millisecond.
        #expect(deadline >= before + 89.999 && deadline < Date().timeIntervalSince1970 + 91)
        #expect(fields[2] == "the server to start")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines[1] == "\(fields[0])\tdone")
    }
}
