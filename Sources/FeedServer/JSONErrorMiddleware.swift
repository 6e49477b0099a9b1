internal import Catalog
package import Hummingbird
internal import Logging
internal import NIOHTTP1

/// Every error leaves the server in the API's JSON shape: unknown routes and methods too, and an unexpected
/// failure becomes a logged 500 that says nothing of the internals.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as CatalogError where error.isTransient {
            context.logger.error("catalog unavailable", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            throw APIError(
                .serviceUnavailable, code: "database_unavailable",
                message: "the catalog cannot answer right now; try again shortly",
                headers: [.retryAfter: "1"])
        } catch let error as HTTPError {
            let code: String
            switch error.status {
            case .notFound: code = "not_found"
            case .methodNotAllowed: code = "method_not_allowed"
            case .badRequest: code = "bad_request"
            default: code = error.status.code < 500 ? "client_error" : "internal"
            }
            let message =
                error.body
                ?? (error.status == .notFound ? "no such resource: \(request.uri.path)" : error.status.reasonPhrase)
            throw APIError(error.status, code: code, message: message, headers: error.headers)
        } catch let error as HTTPParserError {
            throw APIError.malformedRequest(error)
        } catch {
            context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            throw APIError(.internalServerError, code: "internal", message: "the server failed to answer this request")
        }
    }
}
