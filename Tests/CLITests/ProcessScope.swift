import MediaFixtures

#if canImport(Glibc)
import Glibc
#endif

/// Runs `body`, then stops `processes` (SIGTERM, SIGKILL of the group after `limit`), whether `body` returned or
/// threw: what `defer { process.signal(SIGTERM); process.wait() }` did, which `defer` cannot do without blocking a
/// thread of the concurrency pool (it cannot `await`).
func withProcesses<T>(
    _ processes: [ChildProcess?], stoppingWithin limit: Duration = .seconds(30),
    _ body: () async throws -> T
) async throws -> T {
    let value: T
    do {
        value = try await body()
    } catch {
        for process in processes { await process?.stop(SIGTERM, within: limit) }
        throw error
    }
    for process in processes { await process?.stop(SIGTERM, within: limit) }
    return value
}

/// The first line of a `reel serve` (or file server) child once it says "listening on ...", waiting up to `seconds`
/// without holding a thread of the concurrency pool.
/// - Returns: whether it did; a test expects this with the child's stderr, naming what it waited for.
func listens(
    _ child: ChildProcess, prefix: String = "listening on http://127.0.0.1:", seconds: Double = 20
) async -> Bool {
    await ChildProcess.suspendUntil(seconds: seconds) { child.stdout.hasPrefix(prefix) || child.hasExited }
        && child.stdout.hasPrefix(prefix)
}

/// The operations listener (`/metrics`) a `reel serve` child printed after "listening on ...", as a base URL.
func adminBase(_ child: ChildProcess) -> String? {
    child.stdout.split(separator: "\n").first { $0.hasPrefix("admin on ") }?.split(separator: " ").last.map(String.init)
}
