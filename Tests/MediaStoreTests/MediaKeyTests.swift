import MediaStore
import Testing

@Suite(.timeLimit(.minutes(1))) struct MediaKeyTests {
    @Test(arguments: ["", "/videos/a", "videos//a", "videos/../originals/x", "./a", "videos/a/", "a\u{0}b", "a\nb"])
    func refusesKeysThatCouldLeaveTheLibrary(text: String) {
        #expect(throws: MediaStoreError.self) { try MediaKey(text) }
    }

    @Test func acceptsPlainKeysOfAnyScript() throws {
        #expect(try MediaKey("videos/ü 日本/🎬 seg=1&x.m4s").lastComponent == "🎬 seg=1&x.m4s")
    }

    @Test func rangesResolveAgainstTheObjectsSize() {
        #expect(MediaByteRange.span(first: 5, last: 9).resolved(size: 7) == 5...6)
        #expect(MediaByteRange.suffix(20).resolved(size: 7) == 0...6)
        #expect(MediaByteRange.suffix(0).resolved(size: 7) == nil)
        #expect(MediaByteRange.from(7).resolved(size: 7) == nil)
        #expect(MediaByteRange.span(first: 0, last: 0).resolved(size: 0) == nil)
    }

    @Test func datesAreIMFFixdate() {
        #expect(IMFDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(IMFDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(IMFDate.format(-1) == "Wed, 31 Dec 1969 23:59:59 GMT")
        #expect(IMFDate.format(951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
    }
}
