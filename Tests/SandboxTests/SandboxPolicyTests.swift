import Sandbox
import Testing

/// A job's policy: its upload and its staging directory, and what the process must still load once confined.
@Suite(.timeLimit(.minutes(1))) struct SandboxPolicyTests {
    @Test func aJobReadsItsUploadAndWritesOnlyItsStaging() throws {
        let policy = try SandboxPolicy.forJob(input: "/library/.incoming/job", scratch: "/library/.staging/job.1")
        #expect(policy.rules.first { $0.path == "/library/.incoming/job" }?.access == .read)
        #expect(policy.rules.filter { $0.access == .scratch }.map(\.path) == ["/library/.staging/job.1"])
        #expect(policy.rules.filter { $0.access == .device }.map(\.path) == ["/dev/null"])
        #expect(policy.rules.contains { $0.path == "/proc/self" && $0.access == .read })
        // Nothing above the library's own files: no /, no /etc, no /proc as a whole.
        for path in ["/", "/etc", "/proc", "/library", "/tmp", "/dev"] {
            #expect(!policy.rules.contains { $0.path == path }, "\(path) is in the policy")
        }
    }

    @Test func theLoadedLibrariesDirectoriesIncludeLibc() throws {
        let directories = try SandboxPolicy.loadedLibraryDirectories()
        #expect(!directories.isEmpty)
        #expect(directories.allSatisfy { $0.hasPrefix("/") && !$0.hasSuffix("/") })
        #expect(directories.contains { $0.hasSuffix("/lib/x86_64-linux-gnu") || $0.hasSuffix("/lib64") })
    }
}
