import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import FeedServer

/// `GET /` and its two assets: the bytes embedded in the binary, with validators and a Content-Security-Policy that
/// lets only this server's code run (and hls.js from the origin the operator named).
@Suite(.timeLimit(.minutes(5))) struct WebClientRoutesTests {
    let rig: ServerRig

    init() throws { rig = try ServerRig() }

    @Test func theRootIsThePageWithItsScriptAndStyle() async throws {
        try await rig.app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let html = String(buffer: response.body)
                // events.js and prefetch.js first: deferred scripts run in order, and app.js uses both at start.
                #expect(
                    html.contains(
                        "<script src=\"/web/events.js\" defer></script>\n<script src=\"/web/prefetch.js\" defer></script>\n<script src=\"/web/app.js\" defer></script>"
                    ))
                #expect(html.contains("<link rel=\"stylesheet\" href=\"/web/app.css\">"))
                #expect(html.contains("role=\"feed\""))
                #expect(html.contains("<meta name=\"reel-hls-js-url\" content=\"\">"))
                let policy = try #require(response.headers[.contentSecurityPolicy])
                #expect(policy.contains("default-src 'none'"))
                #expect(policy.contains("script-src 'self';"))
                #expect(policy.contains("media-src 'self' blob:"))
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
            }
            try await client.execute(uri: "/web/app.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                let script = String(buffer: response.body)
                #expect(script.contains("pageTriggerDistance: 3"))
                #expect(script.contains("neighbourBufferSeconds: 3"))
                #expect(response.headers[.contentSecurityPolicy] == nil)
            }
            try await client.execute(uri: "/web/events.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                let script = String(buffer: response.body)
                #expect(script.contains("flushMilliseconds: 10000"))
                // Every batch with the tab's session token, from POST /v1/sessions; never a text/plain beacon.
                #expect(script.contains(#""Reel-Session": token.token"#) && script.contains(#""/v1/sessions""#))
                #expect(!script.contains("sendBeacon"))
            }
            try await client.execute(uri: "/web/prefetch.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(String(buffer: response.body).contains("window.ReelPrefetch"))
            }
            try await client.execute(uri: "/web/app.css", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
                #expect(String(buffer: response.body).contains("scroll-snap-type: y mandatory"))
            }
        }
    }

    /// The stats page: its own script, the shared style, and the same policy as the feed's page.
    @Test func theStatsPageHasItsScriptAndThePolicy() async throws {
        try await rig.app.test(.router) { client in
            try await client.execute(uri: "/stats", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let html = String(buffer: response.body)
                #expect(html.contains("<script src=\"/web/stats.js\" defer></script>"))
                #expect(html.contains("<link rel=\"stylesheet\" href=\"/web/app.css\">"))
                let policy = try #require(response.headers[.contentSecurityPolicy])
                #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"))
            }
            try await client.execute(uri: "/web/stats.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("/v1/videos/"))
            }
        }
    }

    @Test(arguments: [
        "/", "/stats", "/web/app.js", "/web/events.js", "/web/prefetch.js", "/web/stats.js", "/web/app.css",
        "/web/icon.svg",
        "/favicon.ico",
    ])
    func eachAssetRevalidatesWith304AndAnswersHEAD(path: String) async throws {
        try await rig.app.test(.router) { client in
            let full = try await client.execute(uri: path, method: .get)
            let etag = try #require(full.headers[.eTag])
            #expect(etag.hasPrefix("\"web-") && etag.hasSuffix("\""))
            #expect(full.headers[.cacheControl] == "no-cache")
            #expect(full.headers[.contentLength] == String(full.body.readableBytes))
            try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: "\"web-0-1\""]) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: path, method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.contentLength] == String(full.body.readableBytes))
                #expect(response.headers[.eTag] == etag)
            }
        }
    }

    @Test func anUnknownPageIsStillAJSON404() async throws {
        try await rig.app.test(.router) { client in
            try await client.execute(uri: "/web/other.js", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func theHlsJsURLIsEscapedIntoThePageAndItsOriginIntoThePolicy() async throws {
        var server = rig.server
        server.webClient = WebClient(
            hlsJSURL: try HLSJSURL("https://cdn.example.org:8443/hls.js/1.6/hls.min.js?a=1&b=2"))
        try await Application(router: server.router()).test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                let html = String(buffer: response.body)
                #expect(html.contains("content=\"https://cdn.example.org:8443/hls.js/1.6/hls.min.js?a=1&amp;b=2\""))
                #expect(
                    response.headers[.contentSecurityPolicy]?.contains(
                        "script-src 'self' https://cdn.example.org:8443;") == true)
            }
        }
    }

    @Test(arguments: [
        ("cdn.example.org/hls.js", "http:// or https://"),
        ("ftp://cdn.example.org/hls.js", "http:// or https://"),
        ("javascript://alert(1)", "http:// or https://"),
        ("https:///hls.js", "must name a host"),
        ("https://user@cdn.example.org/hls.js", "must name a host"),
        ("https://cdn.example.org/hls.js\" onload=\"x", "quotes"),
        ("https://cdn.example.org/a; script-src *", "spaces"),
    ])
    func unusableHlsJsURLsAreRefusedWithTheReason(url: String, reason: String) {
        #expect {
            try HLSJSURL(url)
        } throws: { error in
            let text = "\(error)"
            return text.contains(reason) && text.contains("--hls-js-url")
        }
    }

    @Test func attributeEscapingCoversEveryCharacterThatEndsAnAttribute() {
        #expect(WebClient.attributeEscaped("a\"b<c>d&e") == "a&quot;b&lt;c&gt;d&amp;e")
    }
}
