package import Catalog
internal import CatalogEventLoop
internal import Logging
package import NIOCore
internal import PostgresNIO
internal import Synchronization

/// The feed's page query on connections of its own per HTTP event loop, opened on that loop with the statement
/// prepared once: a page request goes from the HTTP channel to PostgreSQL and back without leaving its thread. Through
/// the pool each page took three thread hops (event loop → concurrency pool → the pool connection's loop and back),
/// which cost several times the query itself. The pool still serves everything else.
///
/// A connection opens at its first page and opens again after the server closed it; after a failed attempt
/// the loop rests a second, failing pages at once, so an outage is answered by the general path (503) quickly.
final class PinnedFeedConnections: EventLoopFeed {
    private struct Slots {
        var byLoop: [ObjectIdentifier: [PinnedFeedConnection]] = [:]
        var closed = false
    }

    /// Connections per event loop. PostgresNIO runs one statement at a time per connection, so one connection would
    /// serialize a loop's pages behind each other's round trips.
    static let perLoop = 4

    private let location: PostgresLocation
    private let logger: Logger
    private let slots = Mutex(Slots())
    private let nextID = Atomic(0)
    /// Every connection opened and not yet closed, whatever its slot's state says: `close` closes these too. Full
    /// test runs showed two pinned backends idle in `ClientRead` long after the store closed its slots.
    private let live = Mutex<[ObjectIdentifier: PostgresConnection]>([:])

    init(location: PostgresLocation, logger: Logger) {
        self.location = location
        self.logger = logger
    }

    func page(limit: Int, after cursor: FeedPosition?, on eventLoop: any EventLoop) -> EventLoopFuture<GeneratedPage> {
        let connections = slots.withLock { slots -> [PinnedFeedConnection]? in
            guard !slots.closed else { return nil }
            if let connections = slots.byLoop[ObjectIdentifier(eventLoop)] { return connections }
            let connections = (0..<Self.perLoop).map { _ in
                PinnedFeedConnection(eventLoop: eventLoop, opener: opener(), logger: logger)
            }
            slots.byLoop[ObjectIdentifier(eventLoop)] = connections
            return connections
        }
        guard let connections else {
            return eventLoop.makeFailedFuture(CatalogError(.unavailable, "the catalog at \(location) is shutting down"))
        }
        // The least busy of the loop's connections (counts are read on the loop, where they change).
        let page = { connections.min { $0.outstanding < $1.outstanding }!.page(limit: limit, after: cursor) }
        if eventLoop.inEventLoop { return page() }
        return eventLoop.flatSubmit(page)
    }

    /// Closes every pinned connection; later pages fail at once. All are asked at once, so one that is slow to close
    /// keeps no other open.
    func close() async {
        let all = slots.withLock { slots in
            slots.closed = true
            return slots.byLoop.values.flatMap { $0 }
        }
        let closing = all.map { slot in slot.eventLoop.flatSubmit { slot.close() } }
        for future in closing { try? await future.get() }
        for connection in live.withLock({ Array($0.values) }) { try? await connection.close().get() }
    }

    private func opener() -> PinnedFeedConnection.Opener {
        let location = self.location
        let logger = self.logger
        let id = nextID.add(1, ordering: .relaxed).newValue
        return { [weak self] eventLoop in
            let configuration: PostgresConnection.Configuration
            do {
                configuration = try PostgresEndpoint.connectionConfiguration(location)
            } catch {
                return eventLoop.makeFailedFuture(error)
            }
            var named = configuration
            // The page's generic plan is the index seek its custom plans are, but PostgreSQL costs it far higher (it
            // cannot see the cursor or the limit) and so plans every execution again: that planning was most of the
            // server's time per page. These connections run only this statement.
            named.options.additionalStartupParameters = [
                ("application_name", Self.applicationName),
                ("plan_cache_mode", "force_generic_plan"),
            ]
            return PostgresConnection.connect(on: eventLoop, configuration: named, id: id, logger: logger).map {
                connection in
                self?.track(connection)
                return connection
            }
        }
    }

    /// Keeps `connection` in `live` until it closes.
    private func track(_ connection: PostgresConnection) {
        let key = ObjectIdentifier(connection)
        live.withLock { $0[key] = connection }
        connection.closeFuture.whenComplete { [weak self] _ in _ = self?.live.withLock { $0.removeValue(forKey: key) } }
    }

    /// How these connections appear in `pg_stat_activity`, for an operator (and the test that proves pages use them).
    static let applicationName = "reel feed (pinned)"
}

/// One event loop's connection and its prepared page statement. Its state is touched only on `eventLoop`.
final class PinnedFeedConnection: @unchecked Sendable {
    typealias Opener = @Sendable (any EventLoop) -> EventLoopFuture<PostgresConnection>

    private struct Ready {
        let connection: PostgresConnection
        let statement: PreparedQuery
    }

    private enum State {
        case idle
        case opening(EventLoopFuture<Ready>)
        case ready(Ready)
        /// The last attempt failed: pages fail with its error until the deadline.
        case resting(until: NIODeadline, error: any Error)
        case closed
    }

    static let restAfterFailure = TimeAmount.seconds(1)
    /// A connection with pages outstanding and no answer for this long is closed (a cut link, a hung server), so its
    /// pages fail over to the general path instead of waiting for TCP to notice.
    static let stallLimit = TimeAmount.seconds(10)

    let eventLoop: any EventLoop
    private let opener: Opener
    private let logger: Logger
    private var state = State.idle
    /// Pages asked for and not yet answered, and when the last one was answered (or the first asked).
    private(set) var outstanding = 0
    /// The pages sent on the current connection, failed when it closes: PostgresNIO drops a statement written after
    /// the channel closed, and its future would never complete (docs/quirks.md).
    private var sent: [Int: EventLoopPromise<GeneratedPage>] = [:]
    private var nextSent = 0
    private var lastProgress = NIODeadline.now()
    private var watchdog: RepeatedTask?

    init(eventLoop: any EventLoop, opener: @escaping Opener, logger: Logger) {
        self.eventLoop = eventLoop
        self.opener = opener
        self.logger = logger
    }

    func page(limit: Int, after cursor: FeedPosition?) -> EventLoopFuture<GeneratedPage> {
        eventLoop.assertInEventLoop()
        precondition((1...FeedLimits.maximumPageSize).contains(limit), "the caller validates the limit")
        let start = cursor ?? FeedPosition.start
        let binds = [
            PostgresData(int64: start.publishedAt), PostgresData(string: start.id),
            PostgresData(int64: Int64(limit + 1)),
        ]
        started()
        return ready().flatMap { [self] ready in
            let promise = eventLoop.makePromise(of: GeneratedPage.self)
            let key = nextSent
            nextSent += 1
            sent[key] = promise
            ready.statement.execute(binds).flatMapThrowing { rows in
                // A statement prepared this way answers in the text format: read through `PostgresData`, which parses it.
                let decoded = try rows.map { row in
                    let columns = row.makeRandomAccess()
                    guard columns.count == 4, let generation = columns[data: 0].int64 else {
                        throw CatalogError(
                            .other, "the feed page query answered an unexpected row: \(columns.count) columns")
                    }
                    return PostgresCatalogEngine.FeedRow(
                        (
                            generation, columns[data: 1].int64, columns[data: 2].string,
                            try Self.bytea(columns[data: 3])
                        ))
                }
                guard let page = PostgresCatalogEngine.page(decoded, limit: limit) else {
                    throw CatalogError(
                        .unavailable, "a stored feed record needs encoding again; the general path encodes it")
                }
                return page
            }.whenComplete { [self] result in sent.removeValue(forKey: key)?.completeWith(result) }
            return promise.futureResult
        }.always { [self] _ in finished() }
    }

    /// A bytea column's bytes, or nil for NULL. The text format spells them `\\x` and two hex digits a byte.
    static func bytea(_ data: PostgresData) throws(CatalogError) -> ByteBuffer? {
        guard let value = data.value else { return nil }
        if data.formatCode == .binary { return value }
        let text = value.readableBytesView
        guard text.count >= 2, text.count % 2 == 0, text.first == UInt8(ascii: "\\"),
            text.dropFirst().first == UInt8(ascii: "x")
        else {
            throw CatalogError(
                .other, "a bytea column came in the text format without its \\x prefix (\(text.count) bytes)")
        }
        var bytes = ByteBuffer()
        bytes.reserveCapacity(text.count / 2 - 1)
        var high: UInt8?
        for digit in text.dropFirst(2) {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
            default: throw CatalogError(.other, "a bytea column's text has a byte that is not a hex digit: \(digit)")
            }
            if let first = high {
                bytes.writeInteger(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }

    /// Fails every page still waiting on a connection that closed.
    private func failSent() {
        let waiting = sent
        sent.removeAll()
        for promise in waiting.values {
            promise.fail(
                CatalogError(.unavailable, "the feed's pinned catalog connection closed before the page was answered"))
        }
    }

    private func started() {
        if outstanding == 0 { lastProgress = .now() }
        outstanding += 1
        guard watchdog == nil else { return }
        watchdog = eventLoop.scheduleRepeatedTask(initialDelay: .seconds(5), delay: .seconds(5)) { [self] task in
            guard outstanding > 0 else {
                task.cancel()
                watchdog = nil
                return
            }
            guard NIODeadline.now() - lastProgress > Self.stallLimit, case let .ready(ready) = state else { return }
            logger.warning(
                "closing the feed's pinned catalog connection: no answer",
                metadata: [
                    "pages_waiting": "\(outstanding)", "seconds": "\(Self.stallLimit.nanoseconds / 1_000_000_000)",
                ])
            state = .idle
            let _: EventLoopFuture<Void> = ready.connection.close()
            failSent()
        }
    }

    private func finished() {
        outstanding -= 1
        lastProgress = .now()
    }

    func close() -> EventLoopFuture<Void> {
        eventLoop.assertInEventLoop()
        let previous = state
        state = .closed
        watchdog?.cancel()
        watchdog = nil
        failSent()
        switch previous {
        case let .ready(ready): return ready.connection.close()
        case let .opening(future): return future.flatMap { $0.connection.close() }.recover { _ in }
        case .idle, .resting, .closed: return eventLoop.makeSucceededVoidFuture()
        }
    }

    private func ready() -> EventLoopFuture<Ready> {
        switch state {
        case let .ready(ready): return eventLoop.makeSucceededFuture(ready)
        case let .opening(future): return future
        case .closed:
            return eventLoop.makeFailedFuture(CatalogError(.unavailable, "the catalog's feed connections are closed"))
        case let .resting(until, error) where NIODeadline.now() < until:
            return eventLoop.makeFailedFuture(error)
        case .idle, .resting:
            return open()
        }
    }

    private func open() -> EventLoopFuture<Ready> {
        let future = opener(eventLoop).flatMap { connection in
            connection.prepare(query: PostgresCatalogEngine.pageSQL).map {
                Ready(connection: connection, statement: $0)
            }
            .flatMapError { error in connection.close().recover { _ in }.flatMapThrowing { throw error } }
        }
        state = .opening(future)
        future.whenComplete { [self] result in
            guard case .opening = state else {  // closed meanwhile
                if case let .success(ready) = result { let _: EventLoopFuture<Void> = ready.connection.close() }
                return
            }
            switch result {
            case let .success(ready):
                state = .ready(ready)
                ready.connection.closeFuture.whenComplete { [self] _ in
                    guard case let .ready(current) = state, current.connection === ready.connection else { return }
                    state = .idle
                    failSent()
                }
            case let .failure(error):
                logger.debug("could not open the feed's pinned catalog connection", metadata: ["error": "\(error)"])
                state = .resting(until: .now() + Self.restAfterFailure, error: error)
            }
        }
        return future
    }
}
