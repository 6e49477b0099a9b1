/// Decides when an inbox file has finished arriving: its size and mtime unchanged for `settle` seconds. A file
/// still being copied in keeps changing, so it is never taken half-written. Pure: the caller passes the clock.
///
/// Each scan's facts are read at an unknown moment inside the scan (a listing can be descheduled for seconds on a
/// loaded host), so the caller passes the clock before and after the listing. A first sighting counts from the
/// listing's end and a repeat is judged at its start: the quiet time credited is never more than really passed.
///
/// Two facts let a first sighting be taken at once (issue 64: playable a second after the upload), instead of
/// `settle` later: a file whose mtime is already `settle` older than the listing's start was not written for that
/// long (every write moves the mtime); and a non-empty file whose ctime is later than its mtime had its last change
/// without a write (a write moves both), which is how a finished upload renamed into the inbox looks. A writer that
/// renames a file in and then goes on writing it is not told apart, as one that stops for `settle` is not either.
package struct StabilityTracker: Sendable {
    package let settle: Double
    private var seen: [[UInt8]: (size: Int64, modified: Int64, since: Double)] = [:]

    package init(settle: Double) { self.settle = settle }

    /// Records this scan's facts for `name`, read after `listingStarted` and before `listingEnded` (monotonic
    /// seconds); true once the same facts were already read at least `settle` seconds before this listing began.
    /// - Parameter wallClockAtListingStart: the real-time clock (nanoseconds since 1970, as `modified`) when the
    ///   listing began; nil to judge by repeated sightings alone.
    /// - Parameter changed: the ctime, when known.
    package mutating func isStable(
        name: [UInt8], size: Int64, modified: Int64, listingStarted: Double, listingEnded: Double,
        wallClockAtListingStart: Int64? = nil, changed: Int64? = nil
    ) -> Bool {
        if let previous = seen[name], previous.size == size, previous.modified == modified {
            return listingStarted - previous.since >= settle
        }
        seen[name] = (size, modified, listingEnded)
        if let changed, size > 0, changed > modified { return true }
        if let wall = wallClockAtListingStart, settle.isFinite, settle * 1e9 < 9e18 {
            let (quiet, overflow) = wall.subtractingReportingOverflow(modified)
            if !overflow, quiet >= Int64(settle * 1e9) { return true }
        }
        return settle <= 0
    }

    /// Forgets names no longer in the inbox (taken, or deleted by their owner).
    package mutating func keepOnly(_ names: Set<[UInt8]>) {
        seen = seen.filter { names.contains($0.key) }
    }

    package mutating func forget(_ name: [UInt8]) { seen[name] = nil }
}
