import Testing
import ViewerAnalytics

/// The roll-up's reading position when rows become visible out of id order, as PostgreSQL commits show them.
@Suite(.timeLimit(.minutes(2))) struct EventLogCursorTests {
    /// What a pass does: reads every gap again, then everything after the highest id, and releases.
    static func pass(_ cursor: inout EventLogCursor<Int64>, visible: Set<Int64>, now: Int64) -> [Int64] {
        for gap in cursor.gaps {
            cursor.take(visible.filter(gap.ids.contains).sorted().map { (id: $0, element: $0) }, now: now)
        }
        let highest = cursor.highest
        cursor.take(visible.filter { $0 > highest }.sorted().map { (id: $0, element: $0) }, now: now)
        return cursor.release(now: now)
    }

    /// Every order in which six ids can commit, with a pass after any of the commits: each pass hands on exactly the
    /// ids of the longest visible run from 1 not handed on before, in order; the gaps are the missing ids below the
    /// highest; and once all have committed, all were handed on once.
    @Test func everyCommitOrderHandsOnTheVisiblePrefixOnce() {
        let ids: [Int64] = [1, 2, 3, 4, 5, 6]
        var cases = 0
        for order in Self.permutations(ids) {
            for schedule in 0..<(1 << (ids.count - 1)) {
                var cursor = EventLogCursor<Int64>(patience: .max, after: 0)
                var visible: Set<Int64> = []
                var handedOn: [Int64] = []
                for (step, id) in order.enumerated() {
                    visible.insert(id)
                    let last = step == ids.count - 1
                    guard last || schedule & (1 << step) != 0 else { continue }
                    let released = Self.pass(&cursor, visible: visible, now: Int64(step))
                    let prefix = Int64((1...7).first { !visible.contains(Int64($0)) }! - 1)
                    let before = Int64(handedOn.count)
                    #expect(released == (prefix > before ? Array((before + 1)...prefix) : []))
                    handedOn += released
                    #expect(cursor.settled == prefix)
                    let missing = (1..<(cursor.highest + 1)).filter { !visible.contains($0) }
                    #expect(cursor.gaps.flatMap { Array($0.ids) } == missing)
                    #expect(cursor.waitingCount == visible.filter { $0 > prefix }.count)
                }
                #expect(handedOn == ids)
                cases += 1
            }
        }
        #expect(cases == 720 * 32)
    }

    /// A transaction that rolled back leaves its ids missing for good: the rows above wait `patience`, then go on; if
    /// the ids show up after that they are not handed on, so nothing is handed on twice or out of order.
    @Test func aGapIsGivenUpAfterPatienceAndALateRowIsDropped() {
        var cursor = EventLogCursor<Int64>(patience: 1_000, after: 0)
        let early = Self.pass(&cursor, visible: [1, 2, 4, 5, 8], now: 10_000)
        #expect(early == [1, 2])
        #expect(cursor.gaps == [.init(ids: 3...3, since: 10_000), .init(ids: 6...7, since: 10_000)])
        #expect(Self.pass(&cursor, visible: [1, 2, 4, 5, 6, 8], now: 10_999).isEmpty)
        #expect(cursor.gaps == [.init(ids: 3...3, since: 10_000), .init(ids: 7...7, since: 10_000)])
        // 9 arrives with a gap of its own before it would be released; both older gaps are given up at 11,000.
        #expect(Self.pass(&cursor, visible: [1, 2, 4, 5, 6, 8, 10], now: 11_000) == [4, 5, 6, 8])
        #expect(cursor.gaps == [.init(ids: 9...9, since: 11_000)] && cursor.settled == 8)
        #expect(Self.pass(&cursor, visible: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], now: 11_001) == [9, 10])
        #expect(cursor.gaps.isEmpty && cursor.settled == 10 && cursor.waitingCount == 0)
    }

    /// Reads that overlap, repeat or come back in any order hand each row on once.
    @Test func rowsTakenTwiceAreHandedOnOnce() {
        var cursor = EventLogCursor<String>(patience: 60_000, after: 0)
        cursor.take([(id: 2, element: "b"), (id: 4, element: "d")], now: 0)
        cursor.take([(id: 4, element: "d"), (id: 2, element: "b"), (id: 3, element: "c")], now: 1)
        #expect(cursor.release(now: 1).isEmpty)
        #expect(cursor.gaps == [.init(ids: 1...1, since: 0)])
        cursor.take([(id: 1, element: "a"), (id: 1, element: "a"), (id: 3, element: "c")], now: 2)
        #expect(cursor.release(now: 2) == ["a", "b", "c", "d"])
        cursor.take([(id: 1, element: "a"), (id: 4, element: "d")], now: 3)
        #expect(cursor.release(now: 3).isEmpty && cursor.highest == 4 && cursor.settled == 4)
    }

    /// A cursor starting cold takes the lowest row it first sees as the start: ids below it were deleted.
    @Test func aColdStartBeginsAtTheFirstRowSeen() {
        var cursor = EventLogCursor<Int64>(patience: 60_000)
        #expect(Self.pass(&cursor, visible: [], now: 0).isEmpty)
        #expect(cursor.settled == 0 && cursor.highest == 0)
        #expect(Self.pass(&cursor, visible: [41, 42, 44], now: 1) == [41, 42])
        #expect(cursor.settled == 42 && cursor.gaps == [.init(ids: 43...43, since: 1)])
        #expect(Self.pass(&cursor, visible: [40, 41, 42, 43, 44], now: 2) == [43, 44])
    }

    static func permutations(_ items: [Int64]) -> [[Int64]] {
        guard let first = items.first else { return [[]] }
        return permutations(Array(items.dropFirst())).flatMap { rest in
            (0...rest.count).map { index in
                var order = rest
                order.insert(first, at: index)
                return order
            }
        }
    }
}
