import Testing

@testable import ObjectStore

@Suite(.timeLimit(.minutes(5))) struct ObjectKeyTests {
    @Test(arguments: [
        "videos/0123456789abcdef0123/master.m3u8", "images/x.webp", "a", "a b+c/ü 日本/🎬.m4s", "a/.b", "a/..b",
        String(repeating: "k", count: 1024),
    ])
    func plainKeysAreKept(key: String) throws {
        #expect(try ObjectKey(key).value == key)
    }

    @Test(arguments: [
        ("", "empty"), ("/videos/a", "starts with /"), ("..", "'..'"), ("videos/../originals/x", "'..'"),
        ("./a", "'.'"), ("a/./b", "'.'"), ("a//b", "empty path component"), ("a/", "ends with /"),
        ("a\u{0}b", "control"), ("a\nb", "control"), ("a\u{7F}", "control"), ("a\u{85}", "control"),
        ("a\tb", "control"), (String(repeating: "k", count: 1025), "over S3's 1024"),
        (String(repeating: "é", count: 513), "over S3's 1024"),
    ])
    func keysThatCouldEscapeAreRefusedWithTheRule(key: String, rule: String) {
        #expect {
            try ObjectKey(key)
        } throws: { error in
            guard let error = error as? ObjectStoreError else { return false }
            return error.reason == .badKey && error.description.contains(rule) && !error.description.contains("\n")
                && !error.description.contains("\u{0}")
        }
    }

    @Test func keysComposeUnderAPrefix() throws {
        let key = try ObjectKey("videos/a").appending("seg_001.m4s")
        #expect(key.value == "videos/a/seg_001.m4s" && key.under("lib") == "lib/videos/a/seg_001.m4s")
        #expect(key.under("") == key.value)
        #expect(throws: ObjectStoreError.self) { try key.appending("..") }
    }
}
