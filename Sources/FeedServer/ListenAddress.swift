/// Where a listener binds: `--admin-listen HOST:PORT` (`127.0.0.1:9464`, `[::1]:0`, `localhost:9100`). Port 0 picks
/// a free port, which `reel serve` prints.
package struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    package var host: String
    package var port: Int

    /// The operations listener's default: loopback only, on a free port (a fixed one would collide between servers
    /// on one host; an operator who scrapes metrics names the port).
    package static let loopback = ListenAddress(host: "127.0.0.1", port: 0)

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `HOST:PORT`, with an IPv6 host in brackets as in a URL.
    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Why an address was refused.
    package struct Invalid: Error, Equatable, CustomStringConvertible {
        package enum Reason: String, Sendable, Equatable {
            case missingPort = "has no :PORT"
            case badPort = "has a port that is not a number from 0 to 65535"
            case missingHost = "has no host before :PORT"
            case badHost = "has a host with a space, a slash or an unclosed bracket"
        }
        package let text: String
        package let reason: Reason
        package var description: String { "\"\(text.prefix(200))\" \(reason.rawValue) (write HOST:PORT)" }
    }

    /// Parses `HOST:PORT` or `[IPv6]:PORT`.
    /// - Throws: `Invalid` naming what is missing or malformed.
    package init(_ text: String) throws(Invalid) {
        guard let colon = text.lastIndex(of: ":") else { throw Invalid(text: text, reason: .missingPort) }
        var host = String(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw Invalid(text: text, reason: .badPort)
        }
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { throw Invalid(text: text, reason: .badHost) }
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            throw Invalid(text: text, reason: .badHost)  // an IPv6 host needs its brackets
        }
        guard !host.isEmpty else { throw Invalid(text: text, reason: .missingHost) }
        guard !host.contains(where: { $0 == " " || $0 == "/" || $0 == "[" || $0 == "]" }) else {
            throw Invalid(text: text, reason: .badHost)
        }
        self.init(host: host, port: port)
    }
}
