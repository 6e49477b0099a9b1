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

    static func run(_ arguments: [String]) throws -> Result {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("reel-out-\(UUID().uuidString)")
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("reel-err-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        // wait4 reaps the child itself so its rusage is ours to read; Foundation then sees it as gone.
        var status: Int32 = 0
        var usage = rusage()
        var reaped: pid_t
        repeat { reaped = wait4(process.processIdentifier, &status, 0, &usage) } while reaped == -1 && errno == EINTR
        let exit: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(
            status: exit,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "",
            maxResidentKilobytes: Int(usage.ru_maxrss)
        )
    }
}
