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
        /// The child's peak resident set, from `wait4`'s rusage (kilobytes on Linux).
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
    /// would race `wait4` for the exit status and rusage.
    static func run(_ arguments: [String]) throws -> Result {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("reel-run-\(UUID().uuidString)").path
        let out = base + ".out", err = base + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: out)
            try? FileManager.default.removeItem(atPath: err)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw SpawnError(path: executable, code: spawned) }
        var status: Int32 = 0
        var usage = rusage()
        var reaped: pid_t
        repeat { reaped = wait4(pid, &status, 0, &usage) } while reaped == -1 && errno == EINTR
        guard reaped == pid else { throw SpawnError(path: executable, code: errno) }
        let exit: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(
            status: exit,
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "",
            maxResidentKilobytes: Int(usage.ru_maxrss)
        )
    }

    struct SpawnError: Error, CustomStringConvertible {
        let path: String
        let code: Int32
        var description: String { "could not run \(path): \(String(cString: strerror(code)))" }
    }
}
