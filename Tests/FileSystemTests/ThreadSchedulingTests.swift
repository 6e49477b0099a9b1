import Deadlines
import Foundation
import Testing

@testable import FileSystem

#if canImport(Glibc)
import Glibc
#endif

/// Reel's threads stay in the normal scheduling class, whatever a codec library does to them.
///
/// The subject is threads and semaphores: each test's waits run on a thread of its own (`onOwnThread`), never on a
/// thread of the concurrency pool that the other tests need; the expectations are checked back in the test.
@Suite(.timeLimit(.minutes(5))) struct ThreadSchedulingTests {
    @Test(.enabled(if: geteuid() == 0, "only a privileged process can make a thread real time"))
    func aRealTimeThreadIsPutBackInTheNormalClass() async throws {
        let (before, after, failure) = try await onOwnThread("raises a thread to real time and puts it back") {
            let raised = DispatchSemaphore(value: 0), checked = DispatchSemaphore(value: 0),
                done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var before = false, after = true
            nonisolated(unsafe) var failure: (any Error)?
            let thread = Thread {
                do {
                    // Priority 1, the lowest real-time one: SVT-AV1 uses 99.
                    try Self.makeCurrentThreadRealTime(priority: 1)
                    before = try Self.currentThreadIsRealTime()
                } catch {
                    failure = error
                }
                raised.signal()
                checked.wait()
                after = (try? Self.currentThreadIsRealTime()) ?? true
                done.signal()
            }
            thread.start()
            raised.wait()
            let kept = Result { () throws(FileSystemError) in _ = try ThreadScheduling.keepOrdinary() }
            checked.signal()
            done.wait()
            try kept.get()
            return (before, after, failure)
        }
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
        #expect(before, "the thread was not real time to begin with")
        // Not "keepOrdinary() moved at least one thread": in a full run another test's encode calls it at the same
        // moment and may put this thread back first (it did: 0 moved, the thread ordinary). What must hold is the end.
        #expect(!after, "the thread is still real time")
        #expect(try !Self.currentThreadIsRealTime())
    }

    @Test(.enabled(if: geteuid() == 0, "only a privileged process can make a thread real time"))
    func aThreadThatForbidsRealTimeCannotRaiseOneUntilItAllowsItAgain() async throws {
        let (forbidden, allowed, couldRaise, failure) = try await onOwnThread(
            "forbids, then allows, real time on a thread"
        ) {
            nonisolated(unsafe) var forbidden: Result<Void, FileSystemError> = .success(())
            nonisolated(unsafe) var allowed: Result<Void, FileSystemError> = .success(())
            nonisolated(unsafe) var couldRaise = false, failure: (any Error)?
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                do {
                    couldRaise = try ThreadScheduling.forbidRealTime()
                    forbidden = Result { () throws(FileSystemError) in try Self.makeCurrentThreadRealTime(priority: 1) }
                    try ThreadScheduling.allowRealTime()
                    allowed = Result { () throws(FileSystemError) in try Self.makeCurrentThreadRealTime(priority: 1) }
                    try ThreadScheduling.keepOrdinary()
                } catch {
                    failure = error
                }
                done.signal()
            }
            thread.start()
            done.wait()
            return (forbidden, allowed, couldRaise, failure)
        }
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
        #expect(couldRaise)
        if case let .failure(error) = forbidden {
            #expect(error.code == EPERM, "\(error)")
        } else {
            Issue.record("raised while forbidden")
        }
        if case let .failure(error) = allowed { Issue.record("could not raise once allowed again: \(error)") }
    }

    /// Whether the calling thread's class is real time.
    static func currentThreadIsRealTime() throws(FileSystemError) -> Bool {
        let policy = sched_getscheduler(0)
        if policy < 0 { throw FileSystemError("sched_getscheduler", "self") }
        return ThreadScheduling.isRealTime(policy)
    }

    /// Puts the calling thread in SCHED_FIFO at `priority`, as SVT-AV1 does to its threads as root.
    static func makeCurrentThreadRealTime(priority: Int32) throws(FileSystemError) {
        var parameters = sched_param()
        parameters.sched_priority = priority
        if sched_setscheduler(0, SCHED_FIFO, &parameters) != 0 {
            throw FileSystemError("sched_setscheduler(SCHED_FIFO)", "self")
        }
    }
}
