internal import Synchronization

/// The last few rankings read, by number: a stored ranking never changes, so once read it is kept, and a page
/// costs one read of its items rather than of the whole ranking.
final class RankingCache: Sendable {
    /// The newest ranking and a few before it, for cursors still paging through those.
    static let capacity = 4
    private let kept = Mutex<[(number: Int64, videos: [String])]>([])

    func videos(_ number: Int64) -> [String]? {
        kept.withLock { kept in kept.first { $0.number == number }?.videos }
    }

    func keep(_ number: Int64, _ videos: [String]) {
        kept.withLock { kept in
            guard !kept.contains(where: { $0.number == number }) else { return }
            kept.append((number, videos))
            kept.sort { $0.number > $1.number }
            if kept.count > Self.capacity { kept.removeLast(kept.count - Self.capacity) }
        }
    }
}
