package import FileSystem
internal import Synchronization

#if REEL_TEST_HOOKS
/// Fault injection for the worker's tests (compiled into debug builds only: `make release` has none of it). `killPoint` names a step of publishing where the worker SIGKILLs itself
/// (recovery tests); `jobFault` is passed to every job process to act out (`job-crash`, `job-hang`, ...);
/// `raise(_:errno:times:)` makes a step fail with a real `FileSystemError` (EIO, EROFS, ENOSPC) a number of times.
package final class WorkerFaults: Sendable {
    /// The steps whose file-system calls can be made to fail.
    package enum Step: String, Sendable, CaseIterable {
        case hashUpload = "hash-upload"
        case createStaging = "create-staging"
        case publishOutputs = "publish-outputs"
        case writeReason = "write-reason"
        case moveOriginal = "move-original"
    }

    package let killPoint: String?
    package let jobFault: String?
    private let pending = Mutex<[Step: (code: Int32, remaining: Int)]>([:])

    package init(killPoint: String? = nil, jobFault: String? = nil) {
        self.killPoint = killPoint
        self.jobFault = jobFault
    }

    /// From `REEL_FAULT_INJECTION`: `job-*` values go to the jobs, anything else is a kill point.
    package convenience init(environmentValue value: String?) {
        guard let value else {
            self.init()
            return
        }
        self.init(killPoint: value.hasPrefix("job-") ? nil : value, jobFault: value.hasPrefix("job-") ? value : nil)
    }

    /// The next `times` passes through `step` fail with `code`.
    package func raise(_ step: Step, errno code: Int32, times: Int) {
        pending.withLock { $0[step] = (code, times) }
    }

    /// Throws the planned error at `step`, if one is due.
    func check(_ step: Step, path: String) throws(FileSystemError) {
        let code: Int32? = pending.withLock { pending in
            guard let planned = pending[step], planned.remaining > 0 else { return nil }
            pending[step] = (planned.code, planned.remaining - 1)
            return planned.code
        }
        if let code { throw FileSystemError("injected at \(step.rawValue)", path, code: code) }
    }
}
#endif
