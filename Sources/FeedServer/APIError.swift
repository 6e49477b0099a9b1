internal import Foundation
public import Hummingbird

/// An error the API answers with `{"error": {"code": ..., "message": ...}}`. `code` is stable and machine-readable;
/// `message` says what was wrong for a person.
public struct APIError: HTTPResponseError, Equatable {
    public let status: HTTPResponse.Status
    public let code: String
    public let message: String
    /// Extra headers, such as `Retry-After` on a 429.
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.cacheControl] = "no-store"
        return JSONBody.response(
            ErrorEnvelope(error: .init(code: code, message: message)), status: status, headers: headers)
    }

    struct ErrorEnvelope: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
        }
        let error: Detail
    }

    static func notFound(_ what: String) -> APIError {
        APIError(.notFound, code: "not_found", message: "\(what) was not found")
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
