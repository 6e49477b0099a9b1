import Testing

@testable import FeedServer

/// `--media-base-url`: what is taken (with its final `/`), and why anything else is refused.
@Suite(.timeLimit(.minutes(5))) struct MediaBaseURLTests {
    @Test(arguments: [
        ("/media/", "/media/"), ("/media", "/media/"), ("/", "/"),
        ("https://cdn.example.com", "https://cdn.example.com/"),
        ("http://127.0.0.1:8333/reel-media/", "http://127.0.0.1:8333/reel-media/"),
        ("https://x.example/a%20b", "https://x.example/a%20b/"),
    ])
    func aPathOrAnHTTPURLIsTaken(text: String, base: String) throws {
        #expect(try MediaBaseURL(text).description == base)
    }

    @Test(arguments: [
        ("media/", "must be an absolute path"), ("ftp://x/", "must be an absolute path"),
        ("//cdn.example.com/", "scheme-relative"),
        ("https:///x", "has no host"), ("https://", "has no host"), ("/a b/", "a control, space or non-ASCII byte"),
        ("/a\"b/", "contains \"\"\""), ("/a\\b", "contains \"\\\""), ("/é/", "non-ASCII"), ("/a\nb", "control"),
        ("/" + String(repeating: "a", count: 1024), "longer than 1024 bytes"),
    ])
    func anythingElseIsRefusedSayingWhy(text: String, reason: String) {
        let error = #expect(throws: MediaBaseURL.Invalid.self) { try MediaBaseURL(text) }
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("--media-base-url ") == true)
    }
}
