import Foundation
import MediaFixtures

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `reel` binary as a child, capturing its output, exit status and peak memory.
struct ReelProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        /// reel's own peak resident set in kilobytes, measured by GNU time (0 unless asked for).
        let maxResidentKilobytes: Int

        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
        }
    }

    static var executable: String { ReelExecutable.path }

    /// - Parameter measuringPeakMemory: runs reel under `/usr/bin/time`. Linux carries a process's peak RSS across
    ///   `execve`, so a child spawned straight from this (large) test process would report the test's own peak;
    ///   GNU time is small and forks reel itself, so its figure is reel's alone.
    /// - Parameter limit: how long reel may run; past it the run throws `DeadlineExceeded` naming the command (and reel
    ///   is killed). The test suspends meanwhile, so the concurrency pool stays free for the other tests.
    /// - Parameter environment: added to the test process's own (an empty value stands for unset where reel says so).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], measuringPeakMemory: Bool = false,
        within limit: Duration = .seconds(600)
    ) async throws -> Result {
        let peak = FileManager.default.temporaryDirectory.appendingPathComponent("reel-peak-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: peak) }
        let command = measuringPeakMemory ? ["/usr/bin/time", "-f", "%M", "-o", peak, executable] : [executable]
        let result = try await ChildProcess.run(command + arguments, environment: environment, within: limit)
        return Result(
            status: result.status, stdout: result.stdout, stderr: result.stderr,
            maxResidentKilobytes: measuringPeakMemory ? Self.lastNumber(in: peak) : 0
        )
    }

    /// GNU time writes "Command exited with non-zero status N" before the figure when reel fails.
    static func lastNumber(in path: String) -> Int {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isNewline).last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            ?? 0
    }
}
