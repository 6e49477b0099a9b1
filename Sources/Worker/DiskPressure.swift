/// Decides when the worker pauses for a full disk and when it resumes. Pure: the caller passes each measurement
/// and the time.
///
/// It pauses when a write failed with ENOSPC/EDQUOT or free space dropped below the minimum. It resumes once free
/// space is at least the minimum and, after a real ENOSPC, has grown since the pause (otherwise the job that hit the
/// wall would at once be claimed into the same wall), or when `retrySeconds` have passed, to try again.
package struct DiskPressure: Sendable, Equatable {
    package enum Transition: Sendable, Equatable {
        case paused, resumed
        /// Full again right after a timed retry: the same episode, not logged again.
        case stillFull
    }

    package let minimumFreeBytes: Int64
    /// How much must be freed after an ENOSPC before claiming again.
    package let regrowthBytes: Int64
    package let retrySeconds: Double
    package private(set) var isPaused = false
    private var resumeAt: Int64 = 0
    private var pausedAt = 0.0
    /// The last resume was a timed retry, not space that came back.
    private var isRetrying = false

    package init(minimumFreeBytes: Int64, regrowthBytes: Int64 = 1 << 20, retrySeconds: Double = 30) {
        self.minimumFreeBytes = minimumFreeBytes
        self.regrowthBytes = regrowthBytes
        self.retrySeconds = retrySeconds
    }

    /// A write failed for lack of space while `available` bytes were free (measured after the job's leftovers went).
    package mutating func noteFull(available: Int64, now: Double) -> Transition? {
        resumeAt = max(minimumFreeBytes, max(available, 0) + regrowthBytes)
        pausedAt = now
        defer { isPaused = true }
        if isPaused { return nil }
        return isRetrying ? .stillFull : .paused
    }

    /// A measurement of free space.
    package mutating func observe(available: Int64, now: Double) -> Transition? {
        if isPaused {
            let regrown = available >= resumeAt
            let retryDue = available >= minimumFreeBytes && now - pausedAt >= retrySeconds
            guard regrown || retryDue else { return nil }
            isPaused = false
            isRetrying = !regrown
            return .resumed
        }
        guard available < minimumFreeBytes else {
            if available >= resumeAt { isRetrying = false }
            return nil
        }
        isRetrying = false
        resumeAt = minimumFreeBytes
        pausedAt = now
        isPaused = true
        return .paused
    }
}
