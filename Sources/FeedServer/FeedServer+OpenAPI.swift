internal import Hummingbird
internal import MediaStore

/// `GET /openapi.yaml`: the HTTP API's OpenAPI description (`OpenAPI/openapi.yaml`), embedded in the binary like the
/// web client, so the contract a client fetches is the one this build was checked against
/// (`Tests/Contract/run_schemathesis.sh`). Strong ETag and `no-cache`: it changes only with a new binary.
extension FeedServer {
    static let openAPIDocument = WebAsset(bytes: PackageResources.openapi_yaml, contentType: "application/yaml")

    func addOpenAPIRoutes(to router: Router<FeedRequestContext>) {
        router.get("/openapi.yaml") { request, _ in Self.openAPIResponse(to: request) }
        router.head("/openapi.yaml") { request, _ in Self.openAPIResponse(to: request) }
    }

    static func openAPIResponse(to request: Request) -> Response {
        let document = openAPIDocument
        var headers: HTTPFields = [.eTag: document.etag, .cacheControl: "no-cache", .xContentTypeOptions: "nosniff"]
        if let match = request.headers[.ifNoneMatch], EntityTag.matches(match, document.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = document.contentType
        headers[.contentLength] = String(document.body.readableBytes)
        let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: document.body)
        return Response(status: .ok, headers: headers, body: body)
    }
}
