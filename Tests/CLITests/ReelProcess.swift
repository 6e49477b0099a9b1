import Foundation
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

    /// The `reel` binary beside the test bundle in the build folder.
    static var executable: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("reel").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/reel").path
    }

    /// Spawns with posix_spawn rather than Foundation's Process, which reaps children on its own thread and
    /// would race `waitpid` for the exit status.
    /// - Parameter measuringPeakMemory: runs reel under `/usr/bin/time`. Linux carries a process's peak RSS across
    ///   `execve`, so a child spawned straight from this (large) test process would report the test's own peak;
    ///   GNU time is small and forks reel itself, so its figure is reel's alone.
    static func run(_ arguments: [String], measuringPeakMemory: Bool = false) throws -> Result {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("reel-run-\(UUID().uuidString)").path
        let out = base + ".out", err = base + ".err", peak = base + ".peak"
        defer {
            for file in [out, err, peak] { try? FileManager.default.removeItem(atPath: file) }
        }
        let command = measuringPeakMemory ? ["/usr/bin/time", "-f", "%M", "-o", peak, executable] : [executable]
        guard FileManager.default.isExecutableFile(atPath: command[0]) else {
            throw SpawnError(path: command[0], code: ENOENT)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = (command + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw SpawnError(path: command[0], code: spawned) }
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &status, 0) } while reaped == -1 && errno == EINTR
        guard reaped == pid else { throw SpawnError(path: executable, code: errno) }
        let exit: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(
            status: exit,
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "",
            maxResidentKilobytes: measuringPeakMemory ? Self.lastNumber(in: peak) : 0
        )
    }

    /// GNU time writes "Command exited with non-zero status N" before the figure when reel fails.
    static func lastNumber(in path: String) -> Int {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isNewline).last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    struct SpawnError: Error, CustomStringConvertible {
        let path: String
        let code: Int32
        var description: String { "could not run \(path): \(String(cString: strerror(code)))" }
    }
}
