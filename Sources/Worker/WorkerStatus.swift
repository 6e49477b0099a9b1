internal import Synchronization

/// What the worker tells the rest of the process about itself (the server's `/healthz`): whether it has paused
/// because the library's disk is full. Safe to read from any thread.
package final class WorkerStatus: Sendable {
    /// The library's file system had no room: no new upload is claimed until it has.
    package struct DiskFull: Sendable, Equatable {
        package var path: String
        package var availableBytes: Int64
        package var requiredBytes: Int64
    }

    private let diskFullState = Mutex<DiskFull?>(nil)

    package init() {}

    package var diskFull: DiskFull? { diskFullState.withLock { $0 } }

    func setDiskFull(_ value: DiskFull?) { diskFullState.withLock { $0 = value } }
}
