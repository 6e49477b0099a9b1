import Deadlines
import FileSystem
import Foundation
import MediaFixtures
import Sandbox
import Testing
import Worker

#if canImport(Glibc)
import Glibc
#endif

/// A job process is confined before it opens its upload (issue 62): it reads only the upload (and the libraries it
/// loads), writes only its staging directory, opens no socket and gains no privilege. Seen from inside a real job:
/// the `job-sandbox-probe` fault (debug builds) makes `reel worker-job` try each of these for real after the sandbox
/// is up and write the errno of every attempt to `probe.json`, started both ways the worker starts jobs.
@Suite(.timeLimit(.minutes(5))) struct SandboxedJobTests {
    enum Start: String, CaseIterable, CustomTestStringConvertible {
        /// `reel worker-job --invocation JSON`, a process of its own (`ProcessJobLauncher`).
        case spawned
        /// Forked from `reel worker-job-server` (`ForkingJobLauncher`), the worker's default.
        case forked

        var testDescription: String { rawValue }
    }

    struct Probe {
        let results: [String: Int32]
        let directory: TemporaryDirectory
        let outsideOpened: Bool

        func errno(_ name: String) -> Int32? { results[name] }

        /// The names of `names` whose attempt succeeded.
        func succeeded(_ names: [String]) -> [String] { names.filter { results[$0] != nil && results[$0] == 0 } }
    }

    /// Runs the probe job on an upload beside a file it must not see, and returns what it could do.
    func probe(_ start: Start, sandbox mode: SandboxMode) async throws -> Probe {
        let directory = try TemporaryDirectory()
        let upload = try directory.write("upload", Array("an upload".utf8))
        let outside = try directory.write("outside", Array("a file beside the upload and the staging".utf8))
        let staging = directory.file("staging")
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let watcher = try OpenWatcher(path: outside)
        var invocation = JobInvocation(
            jobID: "probe", source: upload, staging: staging, memoryMegabytes: 1024, cpuSeconds: 60,
            fault: "job-sandbox-probe")
        invocation.sandbox = mode
        let launcher: any JobLauncher =
            start == .spawned
            ? ProcessJobLauncher(executable: ReelProcess.executable)
            : ForkingJobLauncher(executable: ReelProcess.executable)
        // On a thread of its own, which lives until the job has ended: starting blocks (a fork server's first start
        // spawns the server and waits for its reply), and the server dies with the thread that spawned it
        // (PR_SET_PDEATHSIG), taking its job along.
        let termination = try await onOwnThread("runs the probe job to its end") {
            [invocation] () throws -> Subprocess.Termination? in
            let process = try launcher.launch(invocation)
            let ended = ChildProcess.waitUntil(seconds: 60) { process.poll() != nil }
            return ended ? process.poll() : process.kill()
        }
        let stderr = (try? String(contentsOfFile: staging + "/stderr.log", encoding: .utf8)) ?? ""
        #expect(termination == .exited(0), "the probe job ended \(String(describing: termination)): \(stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: staging + "/probe.json"))
        let results = try JSONDecoder().decode([String: Int32].self, from: data)
        return Probe(results: results, directory: directory, outsideOpened: watcher.wasOpened)
    }

    @Test(arguments: Start.allCases)
    func aJobReadsOnlyItsUploadAndWritesOnlyItsStaging(start: Start) async throws {
        let probe = try await probe(start, sandbox: .auto)
        // Not over-confined: what a job needs works.
        #expect(probe.errno("read_input") == 0 && probe.errno("write_scratch") == 0, "\(probe.results)")
        // Landlock answers EACCES for everything outside the policy.
        let outside = [
            "read_etc_hostname", "read_etc_passwd", "read_outside", "list_input_directory", "write_input",
            "write_beside_scratch", "write_tmp",
        ]
        #expect(probe.succeeded(outside) == [], "\(probe.results)")
        for name in outside { #expect(probe.errno(name) == EACCES, "\(name): \(probe.results)") }
        #expect(!probe.outsideOpened, "the file beside the upload was opened")
        let escaped = try FileManager.default.contentsOfDirectory(atPath: probe.directory.path)
        #expect(!escaped.contains { $0.hasPrefix("probe-escaped-") }, "\(escaped)")
    }

    @Test(arguments: Start.allCases)
    func aJobOpensNoSocket(start: Start) async throws {
        let probe = try await probe(start, sandbox: .auto)
        for name in ["socket_inet", "socket_inet6", "socket_unix", "socket_netlink"] {
            #expect(probe.errno(name) == EPERM, "\(name): \(probe.results)")
        }
    }

    @Test(arguments: Start.allCases)
    func aJobCannotGainPrivileges(start: Start) async throws {
        let probe = try await probe(start, sandbox: .auto)
        #expect(probe.errno("no_new_privileges") == 1, "\(probe.results)")
        #expect(probe.errno("unshare_user_namespace") == EPERM, "\(probe.results)")
        // seccomp refuses execve before Landlock would (no path is executable under it either).
        #expect(probe.errno("execute_program") == EPERM, "\(probe.results)")
        // Every capability is gone (these tests run as root), so not even a job started as root can lift its own
        // limits (where it held CAP_SYS_RESOURCE, which this test bed's container does not grant root).
        #expect(probe.errno("has_capabilities") == 0, "\(probe.results)")
        #expect(probe.errno("raise_address_space_limit") == EPERM, "\(probe.results)")
        // Signals go to the job itself only: the job server (its parent, the same user) is out of reach.
        #expect(probe.errno("signal_parent") == EPERM, "\(probe.results)")
    }

    /// Where a kernel has no Landlock the jail stands in: paths outside the policy do not exist in it, the root is a
    /// read-only tmpfs, and the network namespace has no interface. Forced here with `--job-sandbox namespaces`.
    @Test(arguments: Start.allCases)
    func theNamespaceJailConfinesAJobTheSameWay(start: Start) async throws {
        let probe = try await probe(start, sandbox: .namespaces)
        #expect(probe.errno("read_input") == 0 && probe.errno("write_scratch") == 0, "\(probe.results)")
        // The upload's directory exists in the jail (the upload is mounted in it), holding nothing else.
        let outside = [
            "read_etc_hostname", "read_etc_passwd", "read_outside", "write_input", "write_beside_scratch", "write_tmp",
        ]
        #expect(probe.succeeded(outside) == [], "\(probe.results)")
        for name in ["read_etc_hostname", "read_etc_passwd", "read_outside"] {
            #expect(probe.errno(name) == ENOENT, "\(name): \(probe.results)")
        }
        // The upload is mounted read-only, and so is the jail's root around the mounts.
        for name in ["write_input", "write_beside_scratch", "write_tmp"] {
            #expect(probe.errno(name) == EROFS || probe.errno(name) == ENOENT, "\(name): \(probe.results)")
        }
        #expect(!probe.outsideOpened, "the file beside the upload was opened")
        for name in ["socket_inet", "socket_inet6", "socket_unix", "socket_netlink"] {
            #expect(probe.errno(name) == EPERM, "\(name): \(probe.results)")
        }
        #expect(probe.errno("no_new_privileges") == 1 && probe.errno("has_capabilities") == 0, "\(probe.results)")
        for name in ["unshare_user_namespace", "execute_program", "raise_address_space_limit", "signal_parent"] {
            #expect(probe.errno(name) == EPERM, "\(name): \(probe.results)")
        }
    }
}
