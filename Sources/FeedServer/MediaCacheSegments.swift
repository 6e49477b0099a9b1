/// The bookkeeping of `CachedMediaStore`, without its lock or its clock, so every path is tested as plain values.
///
/// Bounded in bytes by two segments, as `FeedPageCache` is: inserts go to `recent`; when one would take it past
/// `segmentBytes`, `recent` becomes `older` and the previous `older` is dropped. A hit in `older` moves back to
/// `recent`. That is LRU to within a factor of two, with O(1) work per call, and never more than twice
/// `segmentBytes` held. An entry past its `expires` is still found, as `.stale`, so the caller can revalidate it
/// with its entity tag instead of reading it again.
struct MediaCacheSegments<Value, Moment: Comparable> {
    struct Slot {
        var value: Value
        var bytes: Int
        var expires: Moment
    }

    enum Found {
        case fresh(Value)
        case stale(Value)
        case miss
    }

    let segmentBytes: Int
    private(set) var recent: [String: Slot] = [:]
    private(set) var older: [String: Slot] = [:]
    private(set) var recentBytes = 0
    private(set) var olderBytes = 0

    init(segmentBytes: Int) {
        precondition(segmentBytes > 0)
        self.segmentBytes = segmentBytes
    }

    /// What is held: never more than `2 × segmentBytes`.
    var heldBytes: Int { recentBytes + olderBytes }

    /// The entry for `key` as of `now`; a hit in `older` moves to `recent`.
    mutating func find(_ key: String, at now: Moment) -> Found {
        let slot: Slot
        if let found = recent[key] {
            slot = found
        } else if let found = older.removeValue(forKey: key) {
            olderBytes -= found.bytes
            slot = found
            place(key, slot)
        } else {
            return .miss
        }
        return now < slot.expires ? .fresh(slot.value) : .stale(slot.value)
    }

    /// Holds `value` (of `bytes` bytes) under `key` until `expires`, replacing what was there. A value larger than a
    /// segment is not held, and what was under its key goes.
    mutating func insert(_ key: String, _ value: Value, bytes: Int, expires: Moment) {
        remove(key)
        guard bytes <= segmentBytes else { return }
        place(key, Slot(value: value, bytes: max(bytes, 0), expires: expires))
    }

    mutating func remove(_ key: String) {
        if let gone = recent.removeValue(forKey: key) { recentBytes -= gone.bytes }
        if let gone = older.removeValue(forKey: key) { olderBytes -= gone.bytes }
    }

    private mutating func place(_ key: String, _ slot: Slot) {
        if recentBytes + slot.bytes > segmentBytes {
            older = recent
            olderBytes = recentBytes
            recent = [:]
            recentBytes = 0
        }
        recent[key] = slot
        recentBytes += slot.bytes
    }
}
