internal import NIOCore
internal import Synchronization

/// Finished `/v1/feed` bodies for the hot pages: the first page at each limit, and the pages behind cursors this
/// server recently issued (the next page a scrolling viewer asks for). Nearly every viewer asks for the first page
/// and it changes only when a video is published, so the query and the JSON are done once per catalog generation.
///
/// Bounded in entries and bytes by two segments: lookups and inserts go to `recent`; when it fills, it becomes
/// `older` and the previous `older` is dropped. A hit in `older` moves back to `recent`. That is LRU to within a
/// factor of two, with O(1) work under the lock. Every entry belongs to one catalog generation; the first lookup
/// that sees a newer one drops them all.
final class FeedPageCache: Sendable {
    struct Key: Hashable, Sendable {
        let limit: Int
        /// The cursor exactly as the client sent it (only cursors this server encoded are ever stored); nil for the
        /// first page.
        let cursor: String?
    }

    struct Page: Sendable {
        let generation: Int64
        let body: ByteBuffer
        /// The same body gzip-encoded (nil when zlib failed).
        var gzipBody: ByteBuffer? = nil
        /// The page's `next_cursor`: each hit marks it issued again, so the page after a hot page stays hot.
        var nextCursor: String? = nil
    }

    private struct Segments<Element: Hashable, Value> {
        var recent: [Element: Value] = [:]
        var older: [Element: Value] = [:]
    }

    private struct State {
        var generation: Int64?
        var pages = Segments<Key, Page>()
        var recentBytes = 0
        /// Cursors handed out as `next_cursor`, kept across generations (a cursor stays a valid position).
        var issued = Segments<String, Void>()
    }

    /// Entries per segment, so at most twice this many pages are held.
    let segmentEntries: Int
    /// Body bytes per segment, so at most about twice this many bytes are held.
    let segmentBytes: Int
    private let state = Mutex(State())

    init(segmentEntries: Int = 256, segmentBytes: Int = 4 << 20) {
        precondition(segmentEntries > 0 && segmentBytes > 0)
        self.segmentEntries = segmentEntries
        self.segmentBytes = segmentBytes
    }

    /// The page stored for `key` at `generation`, or nil. A newer generation than the cached one drops everything;
    /// an older one (a generation announced a moment late, see PostgresCatalog.AnnouncedGeneration) finds nothing and
    /// drops nothing.
    func page(for key: Key, at generation: Int64) -> Page? {
        state.withLock { state in
            if let cached = state.generation, generation < cached { return nil }
            if state.generation != generation {
                state.generation = generation
                state.pages = Segments()
                state.recentBytes = 0
                return nil
            }
            if let page = state.pages.recent[key] {
                if let next = page.nextCursor, state.issued.recent[next] == nil {
                    Self.issue(next, in: &state, entries: segmentEntries)
                }
                return page
            }
            guard let page = state.pages.older.removeValue(forKey: key) else { return nil }
            Self.insert(page, for: key, into: &state, entries: segmentEntries, bytes: segmentBytes)
            if let next = page.nextCursor { Self.issue(next, in: &state, entries: segmentEntries) }
            return page
        }
    }

    /// Whether a page for `key` may be kept (at whatever generation): when not, and it is not hot either, there is no
    /// point reading the generation before the page.
    func mayHold(_ key: Key) -> Bool {
        state.withLock { state in state.pages.recent[key] != nil || state.pages.older[key] != nil }
    }

    /// Whether a page is worth keeping: the first page, or one behind a cursor this server issued.
    func isHot(_ key: Key) -> Bool {
        guard let cursor = key.cursor else { return true }
        return state.withLock { state in
            state.issued.recent[cursor] != nil || state.issued.older[cursor] != nil
        }
    }

    /// Keeps `page` if it was read at the cached generation (a page read before a publish that a later lookup has
    /// already seen is not kept).
    func store(_ page: Page, for key: Key) {
        state.withLock { state in
            guard state.generation == page.generation, state.pages.recent[key] == nil else { return }
            Self.insert(page, for: key, into: &state, entries: segmentEntries, bytes: segmentBytes)
        }
    }

    /// Marks a `next_cursor` this server handed out, so the page behind it is kept when it is asked for.
    func remember(issued cursor: String) {
        state.withLock { state in Self.issue(cursor, in: &state, entries: segmentEntries) }
    }

    /// Issued cursors are short strings, so four times as many are kept as pages.
    private static func issue(_ cursor: String, in state: inout State, entries: Int) {
        if state.issued.recent.count >= entries * 4 {
            state.issued.older = state.issued.recent
            state.issued.recent = [:]
        }
        state.issued.recent[cursor] = ()
    }

    /// How many pages are held now, for tests.
    var count: Int { state.withLock { $0.pages.recent.count + $0.pages.older.count } }

    private static func insert(_ page: Page, for key: Key, into state: inout State, entries: Int, bytes: Int) {
        if state.pages.recent.count >= entries || state.recentBytes + page.body.readableBytes > bytes {
            state.pages.older = state.pages.recent
            state.pages.recent = [:]
            state.recentBytes = 0
        }
        state.pages.recent[key] = page
        state.recentBytes += page.body.readableBytes
    }
}
