import Foundation
import Glibc

/// A port for a child server that takes its port on the command line (PostgreSQL, python's http.server).
///
/// Bind-to-0-and-release hands out a port from the kernel's ephemeral range, which the kernel gives again to the
/// next outgoing connection's local end or the next bind to 0; under load a run lost its PostgreSQL that way
/// ("could not bind ... Address already in use"). So the pick comes from below that range, at random, and is
/// checked free by binding it. A collision is still possible (another test's pick), so callers retry on one.
package enum FreePort {
    package struct Unavailable: Error, CustomStringConvertible {
        package let description: String
    }

    /// Ports this far below the ephemeral range's start are used.
    static let span = 12_000

    /// A port on `host` nothing is bound to now, from below the ephemeral range.
    /// - Throws: `Unavailable` when `host` is not an IPv4 address or 200 random picks were all taken.
    package static func pick(host: String = "127.0.0.1") throws -> Int {
        let upper = ephemeralStart()
        let lower = max(1024, upper - span)
        for _ in 0..<200 {
            let port = Int.random(in: lower..<upper)
            if try isFree(port, host: host) { return port }
        }
        throw Unavailable(description: "no free port on \(host) in \(lower)..<\(upper) after 200 picks")
    }

    /// Whether a plain bind (no SO_REUSEADDR) to `host:port` succeeds now.
    package static func isFree(_ port: Int, host: String) throws -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Unavailable(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw Unavailable(description: "not an IPv4 address: \(host)")
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound == 0
    }

    /// The first port of `net.ipv4.ip_local_port_range` (32768 when it cannot be read).
    package static func ephemeralStart() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
            let first = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first,
            let start = Int(first), start > 1024 + 1000
        else { return 32768 }
        return start
    }
}
