import FileSystem
import Foundation
import MediaFixtures

#if canImport(Glibc)
import Glibc
#endif

/// The `ip` calls behind `NetworkHosts`: each one checked, stale sets of dead processes removed, a free /24 chosen.
extension NetworkHosts {
    /// Runs `ip arguments` and returns its stdout.
    /// - Throws: `NetworkHostsError` with the command, its status and stderr when it does not exit with 0.
    @discardableResult
    static func ip(_ ip: String, _ arguments: [String]) throws -> String {
        let command = [ip] + arguments
        let result = try ChildProcess.run(command)
        guard result.status == 0 else {
            throw NetworkHostsError(command: command, status: result.status, stderr: result.stderr)
        }
        return result.stdout
    }

    static func findIP() throws -> String {
        let candidates = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw NetworkHostsError(
                "no `ip` in \(candidates.joined(separator: ", ")) (make test installs Debian's iproute2)")
        }
        return path
    }

    /// A lock all processes making hosts share, held while a set picks its /24 and creates its links.
    static func lockAllocation() throws -> FileLock {
        let directory = FileManager.default.fileExists(atPath: "/run/lock") ? "/run/lock" : NSTemporaryDirectory()
        let path = directory + "/reel-network-hosts.lock"
        var lock: FileLock?
        _ = try ChildProcess.waitUntil(seconds: 60) {
            lock = try FileLock(path: path)
            return lock != nil
        }
        guard let lock else { throw NetworkHostsError("another process held \(path) for 60 s") }
        return lock
    }

    /// The names `ip netns list` shows.
    static func namespaces(ip: String) throws -> [String] {
        try Self.ip(ip, ["netns", "list"]).split(separator: "\n").compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
    }

    /// The names of the root namespace's links (`eth0`, not `eth0@if3`).
    static func links(ip: String) throws -> [String] {
        try Self.ip(ip, ["-o", "link", "show"]).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count > 1 else { return nil }
            return String(fields[1].dropLast().prefix { $0 != "@" })
        }
    }

    /// SIGKILLs every process in `namespace` and waits until none is left.
    static func killProcesses(in namespace: String, ip: String) throws {
        let pids = { try Self.ip(ip, ["netns", "pids", namespace]).split(separator: "\n").compactMap { pid_t($0) } }
        var left: [pid_t] = []
        let gone = try ChildProcess.waitUntil(seconds: 10) {
            left = try pids()
            for pid in left { _ = kill(pid, SIGKILL) }
            return left.isEmpty
        }
        guard gone else { throw NetworkHostsError("processes \(left) in \(namespace) still run 10 s after SIGKILL") }
    }

    /// Whether `pid` names a live process (EPERM: alive, someone else's).
    static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Removes namespaces, veths and bridges whose names carry the pid of a process that no longer runs: what a
    /// SIGKILLed or crashed test process left behind.
    static func removeStale(ip: String) throws {
        for namespace in try namespaces(ip: ip) where namespace.hasPrefix(namespacePrefix) {
            guard let pid = pid_t(namespace.dropFirst(namespacePrefix.count).prefix { $0.isNumber }), !isAlive(pid)
            else { continue }
            try killProcesses(in: namespace, ip: ip)
            try Self.ip(ip, ["netns", "del", namespace])
        }
        // Bridges `rb<pid>x<counter>` and root veth ends `rv<pid>x<counter>-<index>`.
        for link in try links(ip: ip) where link.hasPrefix("rb") || link.hasPrefix("rv") {
            let rest = link.dropFirst(2)
            let digits = rest.prefix { $0.isNumber }
            guard !digits.isEmpty, rest.dropFirst(digits.count).first == "x", let pid = pid_t(digits), !isAlive(pid)
            else { continue }
            do {
                try Self.ip(ip, ["link", "del", link])
            } catch {
                // A veth goes with its peer's namespace, which the kernel frees a moment after `ip netns del`.
                guard try links(ip: ip).contains(link) else { continue }
                throw error
            }
        }
    }

    /// The lowest x such that nothing in the root namespace (an address or a route) is in 10.211.x.0/24.
    static func freeOctet(ip: String) throws -> Int {
        let text =
            try Self.ip(ip, ["-4", "-o", "addr", "show"]) + "\n" + Self.ip(ip, ["-4", "route", "show", "table", "all"])
        var used = Set<Int>()
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) where token.hasPrefix("10.211.") {
            if let octet = Int(token.dropFirst("10.211.".count).prefix { $0.isNumber }) { used.insert(octet) }
        }
        guard let free = (0...255).first(where: { !used.contains($0) }) else {
            throw NetworkHostsError("every /24 of 10.211.0.0/16 is in use in the root namespace")
        }
        return free
    }
}
