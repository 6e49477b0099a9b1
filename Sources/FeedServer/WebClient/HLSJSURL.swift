internal import Foundation

/// The operator's hls.js URL (`reel serve --hls-js-url`), checked once at start-up: an absolute http(s) URL with a
/// host, so the page's Content-Security-Policy can name its origin.
package struct HLSJSURL: Sendable, Equatable {
    package let text: String
    /// `scheme://host[:port]`, as a CSP source.
    package let origin: String

    package init(_ text: String) throws(HLSJSURLError) {
        let lowered = text.lowercased()
        guard let schemeEnd = lowered.range(of: "://"),
            ["http", "https"].contains(String(lowered[..<schemeEnd.lowerBound]))
        else {
            throw HLSJSURLError(url: text, problem: "it must start with http:// or https://")
        }
        guard
            !text.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == "<" || $0 == ">" || $0 == ";" })
        else {
            throw HLSJSURLError(url: text, problem: "it must not contain spaces, quotes, angle brackets or semicolons")
        }
        let afterScheme = text[schemeEnd.upperBound...]
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@") else {
            throw HLSJSURLError(url: text, problem: "it must name a host (and no user name)")
        }
        self.text = text
        origin = String(text[..<schemeEnd.upperBound]) + authority
    }
}

package struct HLSJSURLError: Error, CustomStringConvertible, Equatable {
    package let url: String
    package let problem: String
    package var description: String { "--hls-js-url \"\(url.prefix(200))\" is not usable: \(problem)" }
}
