import Catalog
import MediaModel
import NIOCore
import SQLiteCatalog
import Testing

@testable import FeedServer

/// The server's kept renders: a record that changes by one byte is rendered again, a record that cannot be read is
/// an error naming its video (never a crash, even when empty), and the cache stays within its byte budget.
@Suite(.timeLimit(.minutes(5))) struct RenderedItemsTests {
    static func video(_ id: String, master: String) -> FeedVideo {
        FeedVideo(
            id: id, publishedAt: 1_700_000_000_000, durationMilliseconds: 15_000, width: 1080, height: 1920,
            masterPath: master, posterJPEGPath: nil, posterWebPPath: nil, renditions: [])
    }

    static func item(_ video: FeedVideo) -> FeedItem {
        FeedItem(id: video.id, publishedAt: video.publishedAt, record: FeedVideoRecord.encode(video))
    }

    static func page(_ items: [FeedItem], _ rendered: RenderedItems) throws -> String {
        var buffer = ByteBuffer()
        try rendered.write(items, into: &buffer)
        return String(buffer: buffer)
    }

    @Test func aRecordChangedByOneByteIsRenderedAgain() throws {
        let rendered = RenderedItems(mediaBase: .default)
        let first = Self.item(Self.video("a", master: "videos/a/x.m3u8"))
        let changed = Self.item(Self.video("a", master: "videos/a/y.m3u8"))
        #expect(first.record.count == changed.record.count && first.record != changed.record)
        #expect(try Self.page([first], rendered).contains("/media/videos/a/x.m3u8"))
        #expect(try Self.page([first], rendered).contains("/media/videos/a/x.m3u8"))  // kept
        #expect(try Self.page([changed], rendered).contains("/media/videos/a/y.m3u8"))
        #expect(rendered.count == 1)
    }

    @Test(arguments: [[], [9], [1, 200]] as [[UInt8]])
    func anUnreadableRecordNamesItsVideo(record: [UInt8]) throws {
        let rendered = RenderedItems(mediaBase: .default)
        let good = Self.item(Self.video("good", master: "m.m3u8"))
        _ = try Self.page([good], rendered)
        let bad = FeedItem(id: "broken", publishedAt: 1, record: record)
        let error = #expect(throws: CatalogError.self) { try Self.page([good, bad], rendered) }
        #expect(
            error?.description.contains("video broken: a stored feed record is malformed") == true,
            "\(String(describing: error))")
        // The good item is still served from its kept render.
        #expect(try Self.page([good], rendered).hasPrefix("{\"id\":\"good\""))
    }

    @Test func keptRendersStayWithinTheByteBudget() throws {
        let rendered = RenderedItems(mediaBase: .default, byteBudget: 4_000)
        for n in 0..<200 {
            let item = Self.item(Self.video("v\(n)", master: "videos/v\(n)/master.m3u8"))
            #expect(try Self.page([item], rendered).contains("\"id\":\"v\(n)\""))
        }
        #expect(rendered.count > 0 && rendered.count < 40, "\(rendered.count) kept")
        // An item dropped from the cache renders the same again.
        let again = Self.item(Self.video("v0", master: "videos/v0/master.m3u8"))
        #expect(try Self.page([again], rendered).contains("/media/videos/v0/master.m3u8"))
    }
}
