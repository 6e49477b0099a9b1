internal import Foundation
package import Hummingbird
internal import NIOHTTP1

/// An error the API answers with `{"error": {"code": ..., "message": ...}}`. `code` is stable and machine-readable;
/// `message` says what was wrong for a person.
package struct APIError: HTTPResponseError, Equatable {
    package let status: HTTPResponse.Status
    package let code: String
    package let message: String
    /// Extra headers, such as `Retry-After` on a 429.
    package var headers: HTTPFields = [:]
    /// The request's field that was wrong (`caption`), for a client to point at; nil when no one field was.
    package var field: String?

    package init(
        _ status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:], field: String? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.field = field
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.cacheControl] = "no-store"
        return JSONBody.response(
            ErrorEnvelope(error: .init(code: code, message: message, field: field)), status: status, headers: headers)
    }

    struct ErrorEnvelope: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
            /// Left out when nil.
            let field: String?
        }
        let error: Detail
    }

    static func notFound(_ what: String) -> APIError {
        APIError(.notFound, code: "not_found", message: "\(what) was not found")
    }

    /// The HTTP/1.1 decoder gave up on a request after its head, while a handler read the body: a bad chunk size,
    /// a missing CRLF, a body cut off by the client. The client's fault, so a 400, never the catch-all 500; the
    /// decoder closes the connection after it. An upload keeps the bytes that arrived before (HEAD tells the offset).
    static func malformedRequest(_ error: HTTPParserError) -> APIError {
        APIError(
            .badRequest, code: "malformed_request",
            message: "the request is not valid HTTP/1.1 after its head (\(error)); the connection closes")
    }
}

/// JSON responses, encoded the same way everywhere.
enum JSONBody {
    static func response(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data =
            (try? encoder.encode(value))
            ?? Data(#"{"error":{"code":"internal","message":"the response could not be encoded"}}"#.utf8)
        return response(bytes: data, status: status, headers: headers)
    }

    static func response(
        bytes: some Sequence<UInt8>, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
