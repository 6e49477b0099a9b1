import Deadlines
import Testing

/// Waits that always end: `withDeadline` returns at its limit even when the body ignores cancellation, and
/// `value(of:upTo:)` gives a task its grace even when the caller is being cancelled.
@Suite(.timeLimit(.minutes(5))) struct DeadlineTests {
    struct Failure: Error, Equatable {}

    @Test func theBodysValueAndErrorPassThrough() async throws {
        #expect(try await withDeadline(.seconds(30), "a quick body") { 42 } == 42)
        await #expect(throws: Failure()) {
            try await withDeadline(.seconds(30), "a failing body") { () -> Int in throw Failure() }
        }
    }

    @Test func aBodyThatIgnoresCancellationIsLeftBehindAndTheWaitNamesWhatItWaitedFor() async throws {
        let parked = Parked()
        let error = await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.milliseconds(200), "the parked body") { await parked.park() }
        }
        #expect(error?.what == "the parked body")
        #expect(error?.limit == .milliseconds(200))
        #expect(error?.description == "gave up waiting for the parked body after 0.2 seconds")
        #expect(parked.count == 1, "the body is still suspended: it was never awaited")
        parked.release()
    }

    @Test func aBodyThatHonoursCancellationIsCancelledAtTheDeadline() async throws {
        let stopped = OneShot<Void>()
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.milliseconds(100), "a sleeper") {
                do { try await Task.sleep(for: .seconds(600)) } catch { stopped.settle(.success(())) }
            }
        }
        #expect(
            (try? await withDeadline(.seconds(30), "the sleeper to see its cancellation") { try await stopped.value() })
                != nil)
    }

    @Test func cancellingTheCallerEndsTheWaitAtOnceAndCancelsTheBody() async throws {
        let parked = Parked()
        let bodyCancelled = OneShot<Void>()
        let caller = Task {
            try await withDeadline(.seconds(600), "a body the caller gives up on") {
                await withTaskCancellationHandler {
                    await parked.park()
                } onCancel: {
                    bodyCancelled.settle(.success(()))
                }
            }
        }
        while parked.count == 0 { await Task.yield() }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(
            (try? await withDeadline(.seconds(30), "the body's cancellation") { try await bodyCancelled.value() })
                != nil)
        parked.release()
    }

    @Test func aTaskThatEndsInTimeGivesItsValue() async {
        let task = Task { 5 }
        #expect(await value(of: task, upTo: .seconds(30)) == 5)
    }

    @Test func aTaskStillRunningAtTheLimitGivesNil() async {
        let parked = Parked()
        let task = Task {
            await parked.park()
            return 1
        }
        #expect(await value(of: task, upTo: .milliseconds(100)) == nil)
        parked.release()
        #expect(await task.value == 1)
    }

    @Test func aCancelledCallerStillGivesTheTaskItsGrace() async {
        let gate = OneShot<Void>()
        let task = Task {
            _ = try? await gate.value()
            return 9
        }
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }  // a service shutting down is cancelled, then closes its parts
            return await value(of: task, upTo: .seconds(30))
        }
        try? await Task.sleep(for: .milliseconds(50))
        gate.settle(.success(()))
        #expect(await caller.value == 9, "the wait was not cut short by the caller's cancellation")
    }
}
