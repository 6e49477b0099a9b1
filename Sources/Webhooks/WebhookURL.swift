internal import Foundation

/// An endpoint's URL as Reel accepts it: http or https, a host, no user name or password (the secret signs; a
/// password in a URL would be logged), no fragment, at most 2,048 bytes.
package struct WebhookURL: Sendable, Equatable {
    package let text: String
    package let host: String
    package let isHTTPS: Bool

    package enum Problem: Error, Equatable, CustomStringConvertible {
        case tooLong(Int)
        case unparsable
        case scheme(String)
        case noHost
        case credentials
        case fragment

        package var description: String {
            switch self {
            case let .tooLong(bytes): "the URL is \(bytes) bytes; at most 2048 are allowed"
            case .unparsable: "it is not a URL"
            case let .scheme(scheme): "only http and https URLs are allowed, not \(scheme.isEmpty ? "none" : scheme)"
            case .noHost: "the URL has no host"
            case .credentials: "the URL carries a user name or password; the signing secret replaces them"
            case .fragment: "the URL has a fragment (#...), which is never sent"
            }
        }
    }

    package init(_ text: String) throws(Problem) {
        guard text.utf8.count <= 2048 else { throw .tooLong(text.utf8.count) }
        guard let components = URLComponents(string: text), components.url != nil else { throw .unparsable }
        let scheme = components.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else { throw .scheme(scheme) }
        guard var host = components.host, !host.isEmpty else { throw .noHost }
        guard components.user == nil, components.password == nil else { throw .credentials }
        guard components.fragment == nil else { throw .fragment }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.text = text
        self.host = host
        self.isHTTPS = scheme == "https"
    }
}
