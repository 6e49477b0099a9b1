internal import Foundation
internal import HTTPTypes
package import Hummingbird
internal import MediaStore

/// The feed's web page at `/` and the viewer stats page at `/stats`, with their scripts, style and icon, embedded in the binary (SwiftPM's
/// `embedInCode`), so a copied `reel` serves it with no resource folder beside it.
package struct WebClient: Sendable {
    let page: WebAsset
    let script: WebAsset
    let eventsScript: WebAsset
    let prefetchScript: WebAsset
    let statsPage: WebAsset
    let statsScript: WebAsset
    let uploadScript: WebAsset
    let style: WebAsset
    let icon: WebAsset
    let contentSecurityPolicy: String

    /// - Parameter hlsJSURL: where browsers without native HLS load hls.js from; nil offers no fallback.
    package init(hlsJSURL: HLSJSURL? = nil) {
        let html = String(decoding: PackageResources.index_html, as: UTF8.self)
            .replacingOccurrences(of: "{{HLS_JS_URL}}", with: Self.attributeEscaped(hlsJSURL?.text ?? ""))
        page = WebAsset(bytes: Array(html.utf8), contentType: "text/html; charset=utf-8")
        script = WebAsset(bytes: PackageResources.app_js, contentType: "text/javascript; charset=utf-8")
        eventsScript = WebAsset(bytes: PackageResources.events_js, contentType: "text/javascript; charset=utf-8")
        prefetchScript = WebAsset(bytes: PackageResources.prefetch_js, contentType: "text/javascript; charset=utf-8")
        statsPage = WebAsset(bytes: PackageResources.stats_html, contentType: "text/html; charset=utf-8")
        statsScript = WebAsset(bytes: PackageResources.stats_js, contentType: "text/javascript; charset=utf-8")
        uploadScript = WebAsset(bytes: PackageResources.upload_js, contentType: "text/javascript; charset=utf-8")
        style = WebAsset(bytes: PackageResources.app_css, contentType: "text/css; charset=utf-8")
        icon = WebAsset(bytes: PackageResources.icon_svg, contentType: "image/svg+xml")
        // Only this server's own code runs, plus hls.js from the one origin the operator named. MediaSource needs
        // blob: media, and hls.js starts its worker from a blob.
        let scripts = ["'self'"] + (hlsJSURL.map { [$0.origin] } ?? [])
        contentSecurityPolicy = [
            "default-src 'none'",
            "script-src " + scripts.joined(separator: " "),
            "style-src 'self'",
            "img-src 'self'",
            "media-src 'self' blob:",
            "connect-src 'self'",
            "worker-src 'self' blob:",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    func response(_ asset: WebAsset, to request: Request) -> Response {
        var headers: HTTPFields = [.eTag: asset.etag, .cacheControl: "no-cache", .xContentTypeOptions: "nosniff"]
        if asset.contentType.hasPrefix("text/html") {
            headers[.contentSecurityPolicy] = contentSecurityPolicy
            headers[Self.referrerPolicy] = "same-origin"
        }
        if let match = request.headers[.ifNoneMatch], EntityTag.matches(match, asset.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        headers[.contentLength] = String(asset.body.readableBytes)
        let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: asset.body)
        return Response(status: .ok, headers: headers, body: body)
    }

    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!

    static func attributeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "\"": escaped += "&quot;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
