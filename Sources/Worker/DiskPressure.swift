/// Decides when the worker pauses for a full disk and when it resumes. Pure: the caller passes each measurement.
///
/// It pauses when a write failed with ENOSPC/EDQUOT or free space dropped below the minimum. It resumes once free
/// space is at least the minimum and, after a real ENOSPC, has grown since the pause (the job that hit the wall
/// would otherwise be claimed again into the same wall at once).
public struct DiskPressure: Sendable, Equatable {
    public enum Transition: Sendable, Equatable {
        case paused, resumed
    }

    public let minimumFreeBytes: Int64
    /// How much must be freed after an ENOSPC before claiming again.
    public let regrowthBytes: Int64
    public private(set) var isPaused = false
    private var resumeAt: Int64 = 0

    public init(minimumFreeBytes: Int64, regrowthBytes: Int64 = 1 << 20) {
        self.minimumFreeBytes = minimumFreeBytes
        self.regrowthBytes = regrowthBytes
    }

    /// A write failed for lack of space while `available` bytes were free (measured after the job's leftovers went).
    public mutating func noteFull(available: Int64) -> Transition? {
        resumeAt = max(minimumFreeBytes, max(available, 0) + regrowthBytes)
        defer { isPaused = true }
        return isPaused ? nil : .paused
    }

    /// A measurement of free space.
    public mutating func observe(available: Int64) -> Transition? {
        if isPaused {
            guard available >= max(resumeAt, minimumFreeBytes) else { return nil }
            isPaused = false
            return .resumed
        }
        guard available < minimumFreeBytes else { return nil }
        resumeAt = minimumFreeBytes
        isPaused = true
        return .paused
    }
}
