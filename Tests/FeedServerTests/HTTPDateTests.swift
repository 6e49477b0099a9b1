import Foundation
import Testing

@testable import FeedServer

@Suite(.timeLimit(.minutes(5))) struct HTTPDateTests {
    @Test(arguments: [
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"), (1_700_000_000, "Tue, 14 Nov 2023 22:13:20 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
    ])
    func lastModifiedIsIMFFixdate(seconds: Int, text: String) {
        #expect(HTTPDate.format(seconds) == text)
    }
}

@Suite(.timeLimit(.minutes(5))) struct HTTPDateNowTests {
    @Test func nowIsTodayInTheSameFormat() throws {
        let now = HTTPDate.now()
        #expect(now == HTTPDate.format(Int(time(nil))) || now == HTTPDate.format(Int(time(nil)) - 1))
        #expect(now.hasSuffix(" GMT") && now.count == 29)
    }
}
