import Sandbox
import Testing

/// The job filter is built (not loaded: it would confine the test runner) from names this libseccomp knows.
@Suite(.timeLimit(.minutes(1))) struct SeccompFilterTests {
    @Test func theJobFilterBuildsFromKnownSystemCalls() throws {
        #expect(SeccompFilter.isSupported)
        _ = try SeccompFilter.forJobs(process: 12345)
    }

    @Test func anUnknownSystemCallIsAnErrorNamingIt() throws {
        let filter = try SeccompFilter()
        let error = #expect(throws: SandboxError.self) { try filter.deny("no_such_call", errno: 1) }
        #expect(error?.call.contains("no_such_call") == true)
    }
}
