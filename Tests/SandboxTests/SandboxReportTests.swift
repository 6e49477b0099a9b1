import Sandbox
import Testing

/// What a job's report calls its protection, and when the worker must warn that a job ran with less.
@Suite(.timeLimit(.minutes(1))) struct SandboxReportTests {
    func report(
        landlock: Int? = nil, namespaces: Bool = false, seccomp: Bool = false, noNewPrivileges: Bool = true
    )
        -> SandboxReport
    {
        var report = SandboxReport(mode: .auto)
        report.landlockABI = landlock
        report.namespaces = namespaces
        report.seccomp = seccomp
        report.noNewPrivileges = noNewPrivileges
        return report
    }

    @Test func namesEachProtectionInPlace() {
        #expect(report(landlock: 7, seccomp: true).protection == "landlock+seccomp")
        #expect(report(namespaces: true, seccomp: true).protection == "namespaces+seccomp")
        #expect(report(seccomp: true).protection == "seccomp")
        #expect(SandboxReport(mode: .off).protection == "none")
    }

    @Test func isCompleteOnlyWithFilesConfinedNoNetworkAndNoNewPrivileges() {
        #expect(report(landlock: 7, seccomp: true).isComplete)
        #expect(report(namespaces: true, seccomp: true).isComplete)
        // A network namespace has no interface: the jail alone closes the network.
        #expect(report(namespaces: true).isComplete)
        // Landlock without seccomp leaves UDP and every non-TCP socket open.
        #expect(!report(landlock: 7).isComplete)
        // seccomp alone leaves the file system open.
        #expect(!report(seccomp: true).isComplete)
        #expect(!report(landlock: 7, seccomp: true, noNewPrivileges: false).isComplete)
        #expect(!SandboxReport(mode: .off).isComplete)
    }
}
