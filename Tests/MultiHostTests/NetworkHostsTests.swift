import Deadlines
import Foundation
import MediaFixtures
import Testing

@testable import TestServers

#if canImport(Glibc)
import Glibc
#endif

/// The simulated machines issue 12's multi-host tests stand on: hosts reach PostgreSQL on the root address, a cut
/// link really cuts one host off and restoring it really brings it back, servers inside hosts are reachable from
/// the root, and nothing outlives the set (or a dead test process).
@Suite(.timeLimit(.minutes(5))) struct NetworkHostsTests {
    /// `SELECT 1` through psql from inside `host`; connect_timeout=2 so a cut link fails instead of hanging.
    static func selectOne(
        from host: NetworkHost, hosts: NetworkHosts, server: PostgresTestServer
    )
        async throws -> (status: Int32, stdout: String, stderr: String)
    {
        let connection =
            "host=\(server.host) port=\(server.port) user=\(PostgresTestServer.user) dbname=postgres connect_timeout=2"
        let psql = try hosts.run(host, server.psql, ["-X", "-A", "-t", "-c", "SELECT 1", connection])
        let status = try await psql.exit(within: .seconds(60))
        return (status, psql.stdout.trimmingCharacters(in: .whitespacesAndNewlines), psql.stderr)
    }

    @discardableResult
    static func ip(_ arguments: [String]) async throws -> String {
        try await onOwnThread("ip \(arguments.joined(separator: " "))") {
            try NetworkHosts.ip(NetworkHosts.findIP(), arguments)
        }
    }

    @Test func everyHostReachesPostgresOnTheRootAddress() async throws {
        let hosts = try await NetworkHosts.make(count: 3)
        let server = try await PostgresTestServer(host: hosts.rootAddress, trusting: [hosts.subnet])
        #expect(Set(hosts.hosts.map(\.namespace)).count == 3)
        #expect(Set(hosts.hosts.map(\.address)).count == 3)
        for host in hosts.hosts {
            let result = try await Self.selectOne(from: host, hosts: hosts, server: server)
            #expect(
                result.status == 0 && result.stdout == "1",
                "psql from \(host): \(result.status) \(result.stdout) \(result.stderr)")
        }
    }

    /// Starts `python3 -m http.server` on port 8000 of `host`, serving a directory with marker.txt in it.
    /// Each namespace has its own ports: a fixed one cannot clash with anything else on the machine.
    static func startFileServer(
        in host: NetworkHost, hosts: NetworkHosts, directory: TemporaryDirectory
    ) throws -> ChildProcess {
        try directory.write("marker.txt", text: "served from \(host.namespace)")
        return try hosts.run(
            host, "/usr/bin/python3",
            [
                "-m", "http.server", "8000", "--bind", host.address,
                "--directory", directory.path,
            ])
    }

    /// GETs marker.txt from `host`'s file server, from the root namespace, giving up after 2 s.
    static func fetchMarker(from host: NetworkHost) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run([
            "/usr/bin/curl", "-sS", "--max-time", "2", "http://\(host.address):8000/marker.txt",
        ])
    }

    /// Fetches marker.txt until it answers (the server needs a moment to bind), at most 30 s.
    static func waitForMarker(
        from host: NetworkHost, server: ChildProcess
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        var last: (status: Int32, stdout: String, stderr: String) = (-1, "", "never tried")
        _ = try await ChildProcess.suspendUntil(seconds: 30) {
            last = try await fetchMarker(from: host)
            return last.status == 0 || server.hasExited
        }
        return last
    }

    @Test func aCutHostCannotConnectWhileAnotherCanAndConnectsAgainOnceRestored() async throws {
        let hosts = try await NetworkHosts.make(count: 2)
        let server = try await PostgresTestServer(host: hosts.rootAddress, trusting: [hosts.subnet])
        let (cut, other) = (hosts.hosts[0], hosts.hosts[1])
        let directory = try TemporaryDirectory()
        let files = try Self.startFileServer(in: cut, hosts: hosts, directory: directory)
        let before = try await Self.selectOne(from: cut, hosts: hosts, server: server)
        #expect(before.status == 0 && before.stdout == "1", "before the cut: \(before.stderr)")
        let served = try await Self.waitForMarker(from: cut, server: files)
        #expect(
            served.status == 0,
            "before the cut, \(cut)'s server did not answer the root: \(served.stderr) \(files.stderr)")

        try await hosts.cutLink(cut)
        let during = try await Self.selectOne(from: cut, hosts: hosts, server: server)
        #expect(during.status != 0, "psql from \(cut) connected through a cut link: \(during.stdout)")
        let unreachable = try await Self.fetchMarker(from: cut)
        #expect(unreachable.status != 0, "the root reached \(cut) through a cut link: \(unreachable.stdout)")
        let neighbour = try await Self.selectOne(from: other, hosts: hosts, server: server)
        #expect(neighbour.status == 0 && neighbour.stdout == "1", "\(other) lost PostgreSQL too: \(neighbour.stderr)")

        try await hosts.restoreLink(cut)
        let after = try await Self.selectOne(from: cut, hosts: hosts, server: server)
        #expect(after.status == 0 && after.stdout == "1", "after restoring \(cut): \(after.status) \(after.stderr)")
        let servedAgain = try await Self.fetchMarker(from: cut)
        #expect(servedAgain.status == 0, "after restoring, the root cannot reach \(cut): \(servedAgain.stderr)")
    }

    @Test func aServerInsideAHostIsReachableFromTheRoot() async throws {
        let hosts = try await NetworkHosts.make(count: 2)
        let host = hosts.hosts[1]
        let directory = try TemporaryDirectory()
        let server = try Self.startFileServer(in: host, hosts: hosts, directory: directory)
        // The process really is in the host's namespace (once `ip netns exec` has entered it and exec'd: on a loaded
        // machine that is not at once).
        var namespace = ""
        let entered = try await ChildProcess.suspendUntil(seconds: 30) {
            namespace = try await Self.ip(["netns", "identify", String(server.pid)]).trimmingCharacters(
                in: .whitespacesAndNewlines)
            return namespace == host.namespace
        }
        #expect(entered, "pid \(server.pid) is in namespace '\(namespace)', not \(host.namespace)")
        let answer = try await Self.waitForMarker(from: host, server: server)
        #expect(
            answer.status == 0 && answer.stdout == "served from \(host.namespace)",
            "curl from the root to \(host) within 30 s: \(answer.status) \(answer.stderr); server: \(server.stderr)")
        server.signal(SIGTERM)
        #expect(try await server.exit(within: .seconds(30)) == 128 + SIGTERM)
    }

    @Test func closeKillsWhatRunsInTheHostsAndRemovesNamespacesAndLinks() async throws {
        let hosts = try await NetworkHosts.make(count: 2)
        let sleepers = try hosts.hosts.map { try hosts.run($0, "/bin/sleep", ["600"]) }
        try await hosts.close()
        for sleeper in sleepers { #expect(try await sleeper.exit(within: .seconds(30)) == 128 + SIGKILL) }
        let namespaces = try await Self.ip(["netns", "list"])
        let links = try await Self.ip(["-o", "link", "show"])
        for host in hosts.hosts {
            #expect(!namespaces.contains(host.namespace), "\(host.namespace) is left")
            #expect(!links.contains(host.rootInterface + "@"), "\(host.rootInterface) is left")
        }
        #expect(!links.contains(hosts.bridge + ":"), "\(hosts.bridge) is left")
        // The address may already belong to a set another test made since (the lowest free /24 is reused): only this
        // set's bridge must not hold it.
        let addresses = try await Self.ip(["-4", "-o", "addr", "show"]).split(separator: "\n")
        #expect(
            !addresses.contains { $0.contains("inet \(hosts.rootAddress)/") && $0.contains(" \(hosts.bridge) ") },
            "\(addresses)")
        try await hosts.close()
    }

    @Test func aNewSetRemovesWhatADeadTestProcessLeft() async throws {
        let dead = try ChildProcess(["/bin/true"])
        try await dead.exit(within: .seconds(30))
        let namespace = "\(NetworkHosts.namespacePrefix)\(dead.pid)-stale-0"
        let bridge = "rb\(dead.pid)xstale"
        try await Self.ip(["netns", "add", namespace])
        try await Self.ip(["link", "add", bridge, "type", "bridge"])
        let hosts = try await NetworkHosts.make(count: 1)
        #expect(
            !(try await onOwnThread("ip netns list") { try NetworkHosts.namespaces(ip: hosts.ip) }).contains(namespace))
        #expect(!(try await onOwnThread("ip link show") { try NetworkHosts.links(ip: hosts.ip) }).contains(bridge))
        // This (live) process's own set is kept.
        #expect(
            (try await onOwnThread("ip netns list") { try NetworkHosts.namespaces(ip: hosts.ip) }).contains(
                hosts.hosts[0].namespace))
    }
}
