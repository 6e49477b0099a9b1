internal import Synchronization

/// Which videos the catalog said were published, and which not, at one catalog generation. Every change to a video
/// (published, taken down, deleted) moves the generation, and a new generation forgets all the answers. So a batch
/// of events for videos the server has already looked up needs no read, and at most one read per video and
/// generation goes to the catalog.
final class PublishedVideoCache: Sendable {
    enum Answer: Equatable {
        case allPublished
        /// The first of the videos asked about that is known not to be published.
        case unpublished(String)
        /// Some videos have no answer at this generation yet: the catalog must say.
        case unknown([String])
    }

    private struct State {
        var generation: Int64?
        var published: Set<String> = []
        var absent: Set<String> = []
    }

    private let state = Mutex(State())
    /// Answers for ids that are not published are kept up to this many; past it they are forgotten (a client
    /// making up ids costs a catalog read each, within its rate limits).
    static let absentLimit = 10_000

    /// What is known about `videos` at `generation`.
    func answer(_ videos: [String], generation: Int64) -> Answer {
        state.withLock { state in
            guard state.generation == generation else { return .unknown(videos) }
            var unknown: [String] = []
            for video in videos where !state.published.contains(video) {
                if state.absent.contains(video) { return .unpublished(video) }
                unknown.append(video)
            }
            return unknown.isEmpty ? .allPublished : .unknown(unknown)
        }
    }

    /// What the catalog said about `video` at `generation`.
    func remember(_ video: String, isPublished: Bool, generation: Int64) {
        state.withLock { state in
            if state.generation != generation {
                state = State(generation: generation)
            }
            if isPublished {
                state.published.insert(video)
            } else {
                if state.absent.count >= Self.absentLimit { state.absent.removeAll(keepingCapacity: true) }
                state.absent.insert(video)
            }
        }
    }
}
