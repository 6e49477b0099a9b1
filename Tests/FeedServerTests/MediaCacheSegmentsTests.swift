import NIOCore
import TestTraits
import Testing

@testable import FeedServer

/// The media cache's bookkeeping as plain values: its byte bound, its recency, its expiry; every sequence of a few
/// operations against a model of what must hold.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct MediaCacheSegmentsTests {
    typealias Segments = MediaCacheSegments<String, Int>

    func value(_ found: Segments.Found) -> String? {
        switch found {
        case .fresh(let value), .stale(let value): value
        case .miss: nil
        }
    }

    func isFresh(_ found: Segments.Found) -> Bool {
        if case .fresh = found { true } else { false }
    }

    @Test func aHeldValueIsFreshUntilItExpiresAndStaleAfter() {
        var segments = Segments(segmentBytes: 100)
        segments.insert("a", "A", bytes: 10, expires: 5)
        #expect(isFresh(segments.find("a", at: 4)))
        guard case .stale("A") = segments.find("a", at: 5) else {
            Issue.record("an expired value is found as stale")
            return
        }
        guard case .miss = segments.find("b", at: 0) else {
            Issue.record("a key never held is a miss")
            return
        }
    }

    @Test func aValueLargerThanASegmentIsNotHeldAndDropsWhatItsKeyHeld() {
        var segments = Segments(segmentBytes: 100)
        segments.insert("a", "small", bytes: 10, expires: 9)
        segments.insert("a", "large", bytes: 101, expires: 9)
        #expect(value(segments.find("a", at: 0)) == nil)
        #expect(segments.heldBytes == 0)
    }

    @Test func replacingAValueCountsOnlyTheNewBytes() {
        var segments = Segments(segmentBytes: 100)
        segments.insert("a", "one", bytes: 40, expires: 9)
        segments.insert("a", "two", bytes: 30, expires: 9)
        #expect(value(segments.find("a", at: 0)) == "two")
        #expect(segments.heldBytes == 30)
    }

    @Test func theOlderSegmentIsDroppedWhenTheRecentOneFillsAgainAndAHitThereSurvives() {
        var segments = Segments(segmentBytes: 100)
        segments.insert("hot", "H", bytes: 50, expires: 9)
        segments.insert("cold", "C", bytes: 50, expires: 9)
        // Both turn older when the next one does not fit.
        segments.insert("x", "X", bytes: 60, expires: 9)
        #expect(segments.older.keys.sorted() == ["cold", "hot"])
        #expect(value(segments.find("hot", at: 0)) == "H")
        #expect(segments.recent["hot"] != nil && segments.older["hot"] == nil)
        segments.insert("y", "Y", bytes: 60, expires: 9)
        #expect(value(segments.find("cold", at: 0)) == nil, "cold was in the segment dropped")
        #expect(value(segments.find("hot", at: 0)) == "H")
        #expect(segments.heldBytes <= 200)
    }

    /// Every sequence of up to four operations over three keys, sizes of nothing, within a segment and past it, and
    /// two moments: the bound holds, the counts match what is held, no key is in both segments, what was just
    /// inserted (and fits) is found with its value, what was just found is found again, and nothing removed is found.
    @Test func everyShortSequenceKeepsTheBoundsAndFindsWhatItShould() {
        enum Operation {
            case insert(String, Int)
            case find(String, Int)
            case remove(String)
        }
        var operations: [Operation] = []
        for key in ["a", "b", "c"] {
            for bytes in [0, 3, 5] { operations.append(.insert(key, bytes)) }
            for moment in [0, 10] { operations.append(.find(key, moment)) }
            operations.append(.remove(key))
        }
        var sequences: [[Operation]] = [[]]
        var checked = 0
        var problems: [String] = []
        for _ in 1...4 {
            sequences = sequences.flatMap { prefix in operations.map { prefix + [$0] } }
            for sequence in sequences {
                var segments = Segments(segmentBytes: 4)
                var stamp = 0
                for (step, operation) in sequence.enumerated() {
                    var wrong: String?
                    switch operation {
                    case .insert(let key, let bytes):
                        stamp += 1
                        segments.insert(key, "\(key)\(stamp)", bytes: bytes, expires: 5)
                        if value(segments.find(key, at: 0)) != (bytes <= 4 ? "\(key)\(stamp)" : nil) {
                            wrong = "the inserted value is not found as inserted"
                        }
                    case .find(let key, let moment):
                        let first = segments.find(key, at: moment)
                        if value(segments.find(key, at: moment)) != value(first) {
                            wrong = "a second find differs"
                        } else if value(first) != nil, isFresh(first) != (moment < 5) {
                            wrong = "fresh after expiry or stale before"
                        }
                    case .remove(let key):
                        segments.remove(key)
                        if value(segments.find(key, at: 0)) != nil { wrong = "a removed key is found" }
                    }
                    if segments.recentBytes > 4 || segments.olderBytes > 4 {
                        wrong = "over the bound"
                    } else if segments.recentBytes != segments.recent.values.map(\.bytes).reduce(0, +)
                        || segments.olderBytes != segments.older.values.map(\.bytes).reduce(0, +)
                    {
                        wrong = "the byte counts do not match what is held"
                    } else if !Set(segments.recent.keys).isDisjoint(with: segments.older.keys) {
                        wrong = "a key in both segments"
                    }
                    if let wrong, problems.count < 5 { problems.append("\(sequence) at step \(step): \(wrong)") }
                }
                checked += 1
            }
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(checked == 18 + 18 * 18 + 18 * 18 * 18 + 18 * 18 * 18 * 18)
    }
}
