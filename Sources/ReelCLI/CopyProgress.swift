import CatalogEngines
import Foundation
import Synchronization

/// Progress lines on stderr: each table's start and end, and at most one line a second in between. The last line's
/// time and table are behind a `Mutex`, so the copy may report from any thread.
final class CopyProgress: Sendable {
    private let last = Mutex((line: Date.distantPast, table: ""))

    func report(_ progress: CatalogCopy.Progress) {
        let now = Date()
        let done = progress.copied == progress.total
        let due = last.withLock { last in
            guard done || progress.table != last.table || now.timeIntervalSince(last.line) >= 1 else { return false }
            last = (now, progress.table)
            return true
        }
        guard due else { return }
        let percent = progress.total == 0 ? 100 : progress.copied * 100 / progress.total
        printError("copy: \(progress.table) \(progress.copied)/\(progress.total) (\(percent) %)")
    }
}
