package import Foundation

/// One HTTP request as the tus client builds it; the body is the whole chunk, already in memory.
package struct HTTPRequest: Sendable, Equatable {
    package var method: String
    package var url: URL
    package var headers: [String: String]
    package var body: [UInt8]

    package init(method: String, url: URL, headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// A request header by name, ignoring case.
    package func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// One HTTP answer. Header names are matched without regard to case.
package struct HTTPResponse: Sendable, Equatable {
    package var status: Int
    package var headers: [String: String]
    package var body: [UInt8]

    package init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response header by name, ignoring case.
    package func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The `{"error": {"code", "message"}}` body Reel's API sends with a refusal, when there is one.
    package var apiError: (code: String, message: String)? {
        struct Envelope: Decodable {
            struct Detail: Decodable {
                var code: String
                var message: String?
            }
            var error: Detail
        }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(body)) else { return nil }
        return (envelope.error.code, envelope.error.message ?? "")
    }
}

/// The seam between the upload client and the network: production sends over `URLSession`, tests script answers.
///
/// A thrown error means no answer arrived (refused connection, reset, timeout): the client HEADs and retries.
/// `CancellationError` means the task was cancelled and is passed on.
package protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the server's answer, whatever its status.
    /// - Throws: any error when the connection failed before a whole answer arrived; `CancellationError` when cancelled.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
