/// Decides when an inbox file has finished arriving: its size and mtime unchanged for `settle` seconds. A file
/// still being copied in keeps changing, so it is never taken half-written. Pure: the caller passes the clock.
public struct StabilityTracker: Sendable {
    public let settle: Double
    private var seen: [[UInt8]: (size: Int64, modified: Int64, since: Double)] = [:]

    public init(settle: Double) { self.settle = settle }

    /// Records this scan's facts for `name`; true once they have not changed for `settle` seconds.
    public mutating func isStable(name: [UInt8], size: Int64, modified: Int64, now: Double) -> Bool {
        if let previous = seen[name], previous.size == size, previous.modified == modified {
            return now - previous.since >= settle
        }
        seen[name] = (size, modified, now)
        return settle <= 0
    }

    /// Forgets names no longer in the inbox (taken, or deleted by their owner).
    public mutating func keepOnly(_ names: Set<[UInt8]>) {
        seen = seen.filter { names.contains($0.key) }
    }

    public mutating func forget(_ name: [UInt8]) { seen[name] = nil }
}
