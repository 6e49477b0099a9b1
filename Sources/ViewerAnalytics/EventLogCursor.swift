/// Hands on a log's rows in id order, each exactly once, when ids can become visible out of order. PostgreSQL takes a
/// bigserial id at insert and shows the row at commit, so a reader may see id 7 while a slower transaction still holds
/// id 5. Rows above a missing id wait for it; a gap that stays missing for `patience` is given up, as a transaction
/// that rolled back leaves its ids missing for good. A row that shows up after its gap was given up is not handed on.
/// Pure: the caller reads the log and says what time it is.
package struct EventLogCursor<Element: Sendable>: Sendable {
    /// Ids seen missing, and when they were first seen so (Unix milliseconds).
    package struct Gap: Sendable, Equatable {
        package var ids: ClosedRange<Int64>
        package var since: Int64

        package init(ids: ClosedRange<Int64>, since: Int64) {
            self.ids = ids
            self.since = since
        }
    }

    /// How long a gap is waited for, in milliseconds.
    package let patience: Int64
    /// Every id at or below it has been handed on or given up: no read needs to go below it again.
    package private(set) var settled: Int64 = 0
    /// The highest id read: new rows are read after it.
    package private(set) var highest: Int64 = 0
    /// The ids between `settled` and `highest` not read yet, in order, disjoint: read these again.
    package private(set) var gaps: [Gap] = []
    /// Rows read and not handed on yet, in id order: those above the first gap.
    private var waiting: [(id: Int64, element: Element)] = []

    /// Whether a row has been taken, or the start was known.
    private var started: Bool

    /// A cursor that hands on the rows after id `after`; with nil, from the first row it takes. A log whose oldest
    /// rows were deleted starts above a gap that no commit will fill, so a reader starting cold takes the lowest row
    /// it sees as the first: it misses only rows of transactions still open at that moment.
    package init(patience: Int64, after: Int64? = nil) {
        self.patience = patience
        self.started = after != nil
        self.settled = after ?? 0
        self.highest = after ?? 0
    }

    /// How many rows wait for a gap below them.
    package var waitingCount: Int { waiting.count }

    /// Takes rows read from the log, in any order: those after `highest` and those filling a gap. A row already
    /// taken, or at or below `settled`, is ignored, so overlapping reads are harmless.
    package mutating func take(_ rows: some Sequence<(id: Int64, element: Element)>, now: Int64) {
        for row in rows {
            if !started {
                started = true
                settled = row.id - 1
                highest = row.id - 1
            }
            if row.id > highest {
                if row.id > highest + 1 { gaps.append(Gap(ids: (highest + 1)...(row.id - 1), since: now)) }
                highest = row.id
                waiting.append(row)
            } else if row.id > settled, let index = gaps.firstIndex(where: { $0.ids.contains(row.id) }) {
                fill(row.id, inGap: index)
                waiting.insert(row, at: waiting.partitioningIndex { $0.id >= row.id })
            }
        }
    }

    /// Gives up the gaps seen `patience` or longer ago, then hands on, in id order, every row below the first gap left.
    package mutating func release(now: Int64) -> [Element] {
        gaps.removeAll { now - $0.since >= patience }
        let boundary = gaps.first.map { $0.ids.lowerBound - 1 } ?? highest
        let count = waiting.partitioningIndex { $0.id > boundary }
        let released = waiting[..<count].map(\.element)
        waiting.removeFirst(count)
        settled = max(settled, boundary)
        return released
    }

    /// Removes `id` from the gap at `index`, splitting it when the id lies inside.
    private mutating func fill(_ id: Int64, inGap index: Int) {
        let gap = gaps[index]
        var parts: [Gap] = []
        if gap.ids.lowerBound < id { parts.append(Gap(ids: gap.ids.lowerBound...(id - 1), since: gap.since)) }
        if id < gap.ids.upperBound { parts.append(Gap(ids: (id + 1)...gap.ids.upperBound, since: gap.since)) }
        gaps.replaceSubrange(index...index, with: parts)
    }
}
