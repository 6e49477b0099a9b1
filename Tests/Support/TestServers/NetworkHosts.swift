import Deadlines
import FileSystem
import Foundation
package import MediaFixtures
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Simulated machines for multi-host tests: N network namespaces, each with a veth pair whose root end is a port of
/// one bridge in the root namespace. The bridge holds `rootAddress` (what PostgreSQL and other servers in the test
/// process listen on); host i holds `hosts[i].address` on the same /24, so hosts also reach each other. Processes
/// started with `run` share this machine's files; only the network is their own.
///
/// Names carry this process's pid and a counter, and each set takes a /24 of 10.211.0.0/16 no other set (of any
/// process) uses, so parallel test processes never collide. Needs root and iproute2's `ip`.
package final class NetworkHosts: Sendable {
    /// Every namespace this type makes is named `reelnet-<pid>-<counter>-<index>`.
    package static let namespacePrefix = "reelnet-"

    package let hosts: [NetworkHost]
    /// The bridge's address in the root namespace: every host reaches it.
    package let rootAddress: String
    /// The /24 the hosts and the root address share, for PostgreSQL's pg_hba.conf (`PostgresTestServer(trusting:)`).
    package let subnet: String
    let bridge: String
    let ip: String
    private let isClosed = Mutex(false)
    private static let counter = Atomic<Int>(0)

    /// Makes `count` hosts, each reachable from the root namespace (checked before this returns). Namespaces, veths
    /// and bridges left by test processes that have died are removed first.
    /// - Throws: `NetworkHostsError` naming the `ip` command that failed and its stderr, or saying that root is
    ///   needed, `ip` is missing, no /24 is free, or a link did not come up.
    package static func make(count: Int) async throws -> NetworkHosts {
        try await onOwnThread("making \(count) network hosts") { try NetworkHosts(blockingCount: count) }
    }

    /// `make(count:)` on the calling thread, which every `ip` command blocks.
    @available(*, noasync, message: "blocks the thread on ip commands: await NetworkHosts.make(count:) instead")
    package init(blockingCount count: Int) throws {
        precondition((1...250).contains(count), "NetworkHosts takes 1 to 250 hosts")
        guard getuid() == 0 else {
            throw NetworkHostsError(
                "network namespaces need root (CAP_NET_ADMIN and CAP_SYS_ADMIN): run the multi-host tests as root")
        }
        ip = try Self.findIP()
        let serial = String(Self.counter.add(1, ordering: .relaxed).newValue, radix: 36)
        let tag = "\(getpid())x\(serial)"
        bridge = "rb" + tag
        // Subnet choice and creation happen under one lock, so two sets never pick the same /24.
        let lock = try Self.lockAllocation()
        try Self.removeStale(ip: ip)
        let octet = try Self.freeOctet(ip: ip)
        rootAddress = "10.211.\(octet).1"
        subnet = "10.211.\(octet).0/24"
        hosts = (0..<count).map { index in
            NetworkHost(
                index: index, namespace: "\(Self.namespacePrefix)\(getpid())-\(serial)-\(index)",
                address: "10.211.\(octet).\(index + 2)", interface: "eth0",
                rootInterface: "rv\(tag)-\(String(index, radix: 36))")
        }
        do {
            try create()
            withExtendedLifetime(lock) {}
            for host in hosts { try waitUntilLinked(host, after: "creating it") }
        } catch {
            try? closeBlocking()
            throw error
        }
    }

    /// The last resort when a test did not `close()`: the `ip` commands block the thread that drops the set.
    deinit {
        try? closeBlocking()
    }

    /// Starts `executable` (a path, or a name `ip netns exec` finds on PATH) inside `host`'s namespace; the process
    /// sees this machine's files and `environment` on top of this process's own. `ip netns exec` execs the
    /// command, so the handle's pid is the command's own: SIGKILL/SIGTERM it with `signal`, `wait` for it, read
    /// its `stdout` and `stderr`.
    /// - Throws: `NetworkHostsError` when the set is closed or the executable is not there; FileSystemError when
    ///   the spawn fails.
    package func run(
        _ host: NetworkHost, _ executable: String, _ arguments: [String] = [],
        environment: [String: String] = [:]
    ) throws -> ChildProcess {
        guard !isClosed.withLock({ $0 }) else {
            throw NetworkHostsError("run \(executable) in \(host): the hosts are closed")
        }
        if executable.contains("/"), !FileManager.default.isExecutableFile(atPath: executable) {
            throw NetworkHostsError("run in \(host): \(executable) is not an executable file")
        }
        return try ChildProcess(
            [ip, "netns", "exec", host.namespace, executable] + arguments, environment: environment)
    }

    /// Cuts `host` off: its bridge port goes down, so nothing from the root namespace or another host reaches it,
    /// and its own veth loses carrier (its connections see silence, as with a pulled cable, not a reset).
    /// - Throws: `NetworkHostsError` when `ip` fails or the host's veth still has carrier after 10 s.
    package func cutLink(_ host: NetworkHost) async throws {
        try await onOwnThread("cutting \(host)'s link") { try self.cutLinkBlocking(host) }
    }

    private func cutLinkBlocking(_ host: NetworkHost) throws {
        try Self.ip(ip, ["link", "set", host.rootInterface, "down"])
        let lost = try ChildProcess.waitUntil(seconds: 10) {
            !(try hostLink(host).contains("LOWER_UP"))
        }
        guard lost else {
            throw NetworkHostsError(
                "after cutting \(host): its \(host.interface) still has carrier: \(try hostLink(host))")
        }
    }

    /// Puts `host` back on the network and checks it is reachable again: carrier on its veth, the bridge port
    /// forwarding, its address in place and a route from it to `rootAddress`.
    /// - Throws: `NetworkHostsError` when `ip` fails or any of those is missing after 10 s.
    package func restoreLink(_ host: NetworkHost) async throws {
        try await onOwnThread("restoring \(host)'s link") { try self.restoreLinkBlocking(host) }
    }

    private func restoreLinkBlocking(_ host: NetworkHost) throws {
        try Self.ip(ip, ["link", "set", host.rootInterface, "up"])
        try waitUntilLinked(host, after: "restoring its link")
    }

    /// Kills every process still running in the namespaces (SIGKILL), then deletes the veths, the namespaces
    /// and the bridge. Safe to call again; deinit calls it.
    /// - Throws: `NetworkHostsError` for the first step that failed (the others are still attempted).
    package func close() async throws {
        try await onOwnThread("closing network hosts") { try self.closeBlocking() }
    }

    private func closeBlocking() throws {
        guard
            !isClosed.withLock({ closed in
                defer { closed = true }
                return closed
            })
        else { return }
        var failures: [any Error] = []
        // What exists (a set that failed halfway has only part of it); when listing fails, everything is tried.
        func existing(_ list: () throws -> [String]) -> Set<String>? {
            do { return Set(try list()) } catch {
                failures.append(error)
                return nil
            }
        }
        let namespaces = existing { try Self.namespaces(ip: ip) }
        let links = existing { try Self.links(ip: ip) }
        for host in hosts {
            do {
                let hasNamespace = namespaces?.contains(host.namespace) ?? true
                if hasNamespace { try Self.killProcesses(in: host.namespace, ip: ip) }
                // Deleting the root end takes the pair down at once; a deleted namespace frees its end later.
                if links?.contains(host.rootInterface) ?? true { try Self.ip(ip, ["link", "del", host.rootInterface]) }
                if hasNamespace { try Self.ip(ip, ["netns", "del", host.namespace]) }
            } catch {
                failures.append(error)
            }
        }
        do {
            if links?.contains(bridge) ?? true { try Self.ip(ip, ["link", "del", bridge]) }
        } catch {
            failures.append(error)
        }
        if let first = failures.first { throw first }
    }

    private func create() throws {
        try Self.ip(ip, ["link", "add", bridge, "type", "bridge"])
        try Self.ip(ip, ["addr", "add", rootAddress + "/24", "dev", bridge])
        try Self.ip(ip, ["link", "set", bridge, "up"])
        for host in hosts {
            try Self.ip(ip, ["netns", "add", host.namespace])
            try Self.ip(
                ip,
                [
                    "link", "add", host.rootInterface, "type", "veth", "peer", "name", host.interface,
                    "netns", host.namespace,
                ])
            try Self.ip(ip, ["link", "set", host.rootInterface, "master", bridge])
            try Self.ip(ip, ["link", "set", host.rootInterface, "up"])
            try Self.ip(ip, ["-n", host.namespace, "addr", "add", host.address + "/24", "dev", host.interface])
            try Self.ip(ip, ["-n", host.namespace, "link", "set", host.interface, "up"])
            try Self.ip(ip, ["-n", host.namespace, "link", "set", "lo", "up"])
        }
    }

    private func hostLink(_ host: NetworkHost) throws -> String {
        try Self.ip(ip, ["-n", host.namespace, "-o", "link", "show", "dev", host.interface])
    }

    /// Waits until `host` has carrier, its bridge port forwards, its address is there and it routes to the root.
    private func waitUntilLinked(_ host: NetworkHost, after step: String) throws {
        var observed = ""
        let linked = try ChildProcess.waitUntil(seconds: 10) {
            let link = try hostLink(host)
            let port = try Self.ip(ip, ["-d", "-o", "link", "show", "dev", host.rootInterface])
            let address = try Self.ip(ip, ["-n", host.namespace, "-o", "-4", "addr", "show", "dev", host.interface])
            let route = try ChildProcess.run([ip, "-n", host.namespace, "-4", "route", "get", rootAddress])
            observed = [link, port, address, route.stdout + route.stderr].joined(separator: "\n")
            return link.contains("LOWER_UP") && port.contains("state forwarding")
                && address.contains("inet \(host.address)/24") && route.status == 0
                && route.stdout.contains("dev \(host.interface)")
        }
        guard linked else {
            throw NetworkHostsError("after \(step), \(host) is not linked to \(rootAddress) within 10 s:\n\(observed)")
        }
    }
}
