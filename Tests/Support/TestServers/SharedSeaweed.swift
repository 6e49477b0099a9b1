import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One SeaweedFS for the whole test process, started on first use and killed when the process exits; each test
/// takes a prefix of its own in its bucket (`SeaweedTestServer.newPrefix()`). Tests that stop or restart the store
/// start one of their own. A full run once started some twenty stores at once on two cores, and one answered a PUT
/// with 500 through all seven attempts; most tests need only a place to write.
package actor SharedSeaweed {
    package static let shared = SharedSeaweed()
    /// For the exit handler, which cannot await.
    private static let started = Mutex<SeaweedTestServer?>(nil)
    private var starting: Task<SeaweedTestServer, any Error>?

    /// The running store, started now if this is the first call (a start that failed is tried again next time).
    package func server() async throws -> SeaweedTestServer {
        if let starting {
            do { return try await starting.value } catch { self.starting = nil }
        }
        let task = Task { try await SeaweedTestServer() }
        starting = task
        let server = try await task.value
        Self.started.withLock { $0 = server }
        atexit { SharedSeaweed.started.withLock { $0?.kill() } }
        return server
    }
}

extension SeaweedTestServer {
    /// The process's shared store (see `SharedSeaweed`).
    package static func shared() async throws -> SeaweedTestServer { try await SharedSeaweed.shared.server() }

    /// A prefix no other test uses, for a test on the shared store.
    package static func newPrefix() -> String { "t" + RandomToken.random(12).lowercased() }
}
