package import Hummingbird

/// `reel serve --cors-origin`: lets pages on the named origins (or `*`) read the feed and media and upload.
/// Preflight requests are answered here for every route; the tus, caching and job headers are exposed.
/// The viewer writes (`POST /v1/sessions`, `POST /v1/events`) are granted only to the origins named: `*` does not
/// reach them, so no page anywhere can make its visitors' browsers write events.
struct CORSMiddleware: RouterMiddleware {
    typealias Context = FeedRequestContext
    let origins: Set<String>

    static let allowedMethods = "GET, HEAD, POST, PATCH, DELETE, OPTIONS"
    static let allowedHeaders =
        "Authorization, Content-Type, Reel-Session, Tus-Resumable, Upload-Length, Upload-Offset, Upload-Metadata, "
        + "Upload-Checksum, Upload-Defer-Length, If-None-Match, If-Range, Range"
    static let exposedHeaders =
        "Location, Tus-Resumable, Tus-Version, Tus-Extension, Tus-Max-Size, Tus-Checksum-Algorithm, "
        + "Upload-Offset, Upload-Length, Upload-Metadata, Upload-Expires, Reel-Job, ETag, Retry-After, Content-Range, "
        + "Content-Length, Accept-Ranges"

    init(origins: [String]) { self.origins = Set(origins) }

    /// The paths whose writes only named origins may make.
    static let viewerWritePaths: Set<String> = ["/v1/sessions", "/v1/events"]

    func allowedOrigin(_ origin: String?, path: String) -> String? {
        guard let origin else { return nil }
        if origins.contains(origin) { return origin }
        if origins.contains("*"), !Self.viewerWritePaths.contains(path) { return "*" }
        return nil
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let allowed = allowedOrigin(request.headers[.origin], path: request.uri.path)
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            var headers: HTTPFields = [.vary: "Origin"]
            if let allowed {
                headers[.accessControlAllowOrigin] = allowed
                headers[.accessControlAllowMethods] = Self.allowedMethods
                headers[.accessControlAllowHeaders] = Self.allowedHeaders
                headers[.accessControlMaxAge] = "600"
            }
            return Response(status: .noContent, headers: headers)
        }
        do {
            var response = try await next(request, context)
            decorate(&response.headers, allowed: allowed, path: request.uri.path)
            return response
        } catch var error as APIError {
            decorate(&error.headers, allowed: allowed, path: request.uri.path)
            throw error
        }
    }

    func decorate(_ headers: inout HTTPFields, allowed: String?, path: String) {
        if !origins.contains("*") || Self.viewerWritePaths.contains(path) {
            headers[.vary] = headers[.vary].map { $0 + ", Origin" } ?? "Origin"
        }
        guard let allowed else { return }
        headers[.accessControlAllowOrigin] = allowed
        headers[.accessControlExposeHeaders] = Self.exposedHeaders
    }
}
