import Testing

@testable import Webhooks

@Suite(.timeLimit(.minutes(1))) struct WebhookURLTests {
    @Test func httpAndHTTPSURLsWithAHostAreAccepted() throws {
        let url = try WebhookURL("https://hooks.example.com:8443/reel?app=1")
        #expect(url.host == "hooks.example.com" && url.isHTTPS)
        #expect(try WebhookURL("http://[::1]:8080/x").host == "::1")
        #expect(try !WebhookURL("HTTP://example.com/").isHTTPS)
    }

    @Test(arguments: [
        ("ftp://example.com/", WebhookURL.Problem.scheme("ftp")),
        ("file:///etc/passwd", .scheme("file")),
        ("gopher://example.com/", .scheme("gopher")),
        ("example.com/hook", .scheme("")),
        ("http:///path", .noHost),
        ("https://user:pass@example.com/", .credentials),
        ("https://user@example.com/", .credentials),
        ("https://example.com/#frag", .fragment),
        ("http://exa mple.com/", .unparsable),
    ])
    func otherURLsAreRefusedWithTheReason(_ text: String, problem: WebhookURL.Problem) {
        #expect(throws: problem) { try WebhookURL(text) }
    }

    @Test func aURLOver2048BytesIsRefused() {
        let long = "https://example.com/" + String(repeating: "a", count: 2030)
        #expect(throws: WebhookURL.Problem.tooLong(long.utf8.count)) { try WebhookURL(long) }
        #expect(WebhookURL.Problem.tooLong(2050).description.contains("at most 2048"))
    }
}
