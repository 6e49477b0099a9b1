import Deadlines
import Foundation
import Testing

@testable import FileSystem

/// Per-thread CPU, which `reel transcode` reports per encoder (`encode_cpu_seconds`).
///
/// The subject is threads: each test spins, and waits on semaphores, on a thread of its own (`onOwnThread`), never on
/// a thread of the concurrency pool that the other tests need; the expectations are checked back in the test.
@Suite(.timeLimit(.minutes(5))) struct ThreadCPUTests {
    @Test func statLinesAreReadAfterTheCommandNameWhateverItHolds() {
        let line = "4242 (x264 (lookahead) 1) S 1 2 3 4 5 6 7 8 9 10 250 31 0 0 20 0 1 0 100 0 0"
        #expect(ThreadCPU.ticks(fromStat: line) == 281)
        #expect(ThreadCPU.ticks(fromStat: "4242 (short) S 1 2") == nil)
        #expect(ThreadCPU.ticks(fromStat: "no parenthesis") == nil)
    }

    /// Spins for at least `seconds` of the calling thread's CPU.
    static func spin(_ seconds: Double) -> Double {
        let started = ThreadCPU.currentThreadSeconds()
        var x = 0.0
        while ThreadCPU.currentThreadSeconds() - started < seconds { x += 1 }
        return x
    }

    @Test func aThreadsCPUReadsTheSameFromItsStatAsFromItsOwnClock() async throws {
        let (spun, own, read, process) = try await onOwnThread("spins and reads its own CPU") {
            let spun = Self.spin(0.2)
            let own = ThreadCPU.currentThreadSeconds()
            let read = ThreadCPU.seconds(ofThread: ThreadCPU.currentThreadID())
            return (spun, own, read, ThreadCPU.processSeconds())
        }
        #expect(spun > 0)
        let stat = try #require(read)
        // /proc counts whole clock ticks (10 ms here); the thread's own clock counts nanoseconds.
        #expect(stat <= own + 0.001 && stat >= own - 0.05, "stat \(stat) s, clock \(own) s")
        #expect(process >= own)
    }

    @Test func aThreadStartedMeanwhileIsNewAndItsCPUIsItsOwn() async throws {
        let (listedItself, new, spent) = try await onOwnThread("starts a spinning thread and waits for it") {
            let before = ThreadCPU.threadIDs()
            let listedItself = before.contains(ThreadCPU.currentThreadID())
            let started = DispatchSemaphore(value: 0), finish = DispatchSemaphore(value: 0)
            let thread = Thread {
                _ = Self.spin(0.2)
                started.signal()
                _ = finish.wait(timeout: .now() + 30)  // the test signals it at once; bounded all the same
            }
            thread.start()
            guard started.wait(timeout: .now() + 30) == .success else {
                throw SpinTimeout(what: "the spinning thread to start")
            }
            let new = ThreadCPU.threadIDs().subtracting(before)
            let spent = new.compactMap { ThreadCPU.seconds(ofThread: $0) }.reduce(0, +)
            finish.signal()
            return (listedItself, new, spent)
        }
        #expect(listedItself)
        #expect(!new.isEmpty)
        #expect(spent >= 0.15, "the new threads used \(spent) s")
        #expect(ThreadCPU.seconds(ofThread: Int32.max) == nil)
    }

    @Test func aGroupKeepsTheCPUOfAThreadThatHasEndedAsLastSeen() async throws {
        let (id, sampled) = try await onOwnThread("samples a spinning thread's CPU, then lets it end") {
            let spun = DispatchSemaphore(value: 0), finish = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var id: Int32 = 0
            let thread = Thread {
                id = ThreadCPU.currentThreadID()
                _ = Self.spin(0.2)
                spun.signal()
                _ = finish.wait(timeout: .now() + 30)  // the test signals it at once; bounded all the same
            }
            thread.start()
            guard spun.wait(timeout: .now() + 30) == .success else {
                throw SpinTimeout(what: "the spinning thread to spin")
            }
            var group = ThreadGroupCPU(threads: [id])
            group.sample()
            finish.signal()
            return (id, group)
        }
        var group = sampled
        let whileRunning = group.seconds
        // The thread ends: its /proc entry goes, and reading it gives nothing.
        for _ in 0..<500 where ThreadCPU.seconds(ofThread: id) != nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(ThreadCPU.seconds(ofThread: id) == nil, "thread \(id) has not ended")
        group.sample()
        #expect(whileRunning >= 0.15, "the running thread used \(whileRunning) s")
        #expect(group.seconds == whileRunning, "an ended thread keeps what it used when last read")
        #expect(ThreadGroupCPU(threads: []).seconds == 0)
    }
}

/// A wait of these tests that passed its 30 s bound, naming what it waited for.
struct SpinTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "no sign of \(what) within 30 s" }
}
