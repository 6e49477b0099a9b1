/// The CPU of a set of threads, each kept as it was last seen: a codec's threads may end before the codec is done
/// with (x264's lookahead thread ends when the encoder is flushed, taking a third of its CPU with it), so they are
/// read now and then while they run, and a thread that has gone counts what it had used when last read.
package struct ThreadGroupCPU: Sendable {
    private var lastSeen: [Int32: Double]

    package init(threads: Set<Int32>) {
        lastSeen = Dictionary(uniqueKeysWithValues: threads.map { ($0, 0) })
    }

    /// Reads every thread still running (a few `/proc` reads; cheap enough to do every GOP).
    package mutating func sample() {
        for (id, seen) in lastSeen {
            if let now = ThreadCPU.seconds(ofThread: id), now > seen { lastSeen[id] = now }
        }
    }

    /// CPU seconds of the group as last sampled.
    package var seconds: Double { lastSeen.values.reduce(0, +) }
}
