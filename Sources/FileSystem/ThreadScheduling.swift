internal import CFileSystem

#if canImport(Glibc)
internal import Glibc
#endif

/// Keeps this process's threads out of real-time scheduling. SVT-AV1 (1.4) gives every thread it starts SCHED_FIFO
/// priority 99 when it runs as root (as in most containers): a transcode's hundreds of busy real-time threads then
/// starve everything else on the machine, the worker's own heartbeats and other jobs included, and every thread and
/// process started from them inherits the class (a Chromium so started spun both cores for 20 minutes).
package enum ThreadScheduling {
    /// Moves every thread of this process that runs SCHED_FIFO or SCHED_RR back to SCHED_OTHER; returns how many it
    /// moved. A thread that ends meanwhile is skipped.
    @discardableResult
    package static func keepOrdinary() throws(FileSystemError) -> Int {
        var moved = 0
        for id in ThreadCPU.threadIDs() {
            let policy = sched_getscheduler(id)
            if policy < 0 {
                if errno == ESRCH { continue }
                throw FileSystemError("sched_getscheduler", "thread \(id)")
            }
            guard isRealTime(policy) else { continue }
            var parameters = sched_param()
            parameters.sched_priority = 0
            if sched_setscheduler(id, SCHED_OTHER, &parameters) != 0 {
                if errno == ESRCH { continue }
                throw FileSystemError("sched_setscheduler(SCHED_OTHER)", "thread \(id)")
            }
            moved += 1
        }
        return moved
    }

    /// Takes CAP_SYS_NICE out of the calling thread's effective capabilities, so that no thread can be made real time
    /// from it (a library's attempt fails, and SVT-AV1 goes on without); returns whether it was there, for
    /// `allowRealTime`. Capabilities are per thread: other threads keep theirs.
    package static func forbidRealTime() throws(FileSystemError) -> Bool {
        var wasOn: Int32 = 0
        if CFileSystem_setSysNiceEffective(0, &wasOn) != 0 {
            throw FileSystemError("capset(CAP_SYS_NICE off)", "thread \(ThreadCPU.currentThreadID())")
        }
        return wasOn != 0
    }

    /// Puts CAP_SYS_NICE back in the calling thread's effective capabilities.
    package static func allowRealTime() throws(FileSystemError) {
        var wasOn: Int32 = 0
        if CFileSystem_setSysNiceEffective(1, &wasOn) != 0 {
            throw FileSystemError("capset(CAP_SYS_NICE on)", "thread \(ThreadCPU.currentThreadID())")
        }
    }

    /// Takes CAP_SYS_NICE out of the calling thread's effective and permitted capabilities for good. Called first in
    /// the process, before any other thread exists, it leaves no thread that can raise itself or start a real-time
    /// thread: `forbidRealTime` covers only the thread that opens an encoder, and a run of `reel transcode` still
    /// showed five SVT-AV1 threads in SCHED_FIFO once in many (2026-11-28).
    package static func neverRealTime() throws(FileSystemError) {
        if CFileSystem_dropSysNice() != 0 {
            throw FileSystemError("capset(CAP_SYS_NICE dropped)", "thread \(ThreadCPU.currentThreadID())")
        }
    }

    /// FIFO or round robin, with or without SCHED_RESET_ON_FORK.
    static func isRealTime(_ policy: Int32) -> Bool {
        let base = policy & ~Int32(0x4000_0000)
        return base == SCHED_FIFO || base == SCHED_RR
    }
}
