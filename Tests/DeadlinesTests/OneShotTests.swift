import Deadlines
import Testing

/// The single-resume box every bounded wait is built on: the first result wins whenever it comes, and the waiter's
/// continuation is resumed exactly once, on every path.
@Suite(.timeLimit(.minutes(5))) struct OneShotTests {
    struct Failure: Error, Equatable { let n: Int }

    @Test func aResultOfferedBeforeTheWaitIsTheOneTaken() async throws {
        let shot = OneShot<Int>()
        #expect(!shot.isSettled)
        #expect(shot.settle(.success(1)))
        #expect(shot.isSettled)
        #expect(!shot.settle(.success(2)), "a later offer is refused")
        #expect(!shot.settle(.failure(Failure(n: 3))))
        #expect(try await shot.value() == 1)
    }

    @Test func aResultOfferedWhileWaitingResumesTheWaiterOnce() async throws {
        let shot = OneShot<Int>()
        let waiter = Task { try await shot.value() }
        while !Task.isCancelled {
            // The waiter has registered once an offer would go to it; before that the offer is kept. Either way the
            // waiter gets the first offer.
            await Task.yield()
            if shot.settle(.success(7)) { break }
        }
        #expect(!shot.settle(.success(8)))
        #expect(try await waiter.value == 7)
    }

    @Test func anErrorIsThrownToTheWaiter() async {
        let shot = OneShot<Int>()
        shot.settle(.failure(Failure(n: 4)))
        await #expect(throws: Failure(n: 4)) { try await shot.value() }
    }

    @Test func cancellingTheWaiterEndsItsWaitAndRunsOnCancel() async {
        let shot = OneShot<Int>()
        let cancelled = OneShot<Void>()
        let waiter = Task { try await shot.value { cancelled.settle(.success(())) } }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(shot.isSettled, "the cancellation is the result")
        #expect(!shot.settle(.success(1)), "a racer's later result is ignored")
        #expect((try? await cancelled.value()) != nil, "onCancel ran, so the caller can stop its racers")
    }

    @Test func aWaiterCancelledBeforeItWaitsStillEnds() async {
        let shot = OneShot<Int>()
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await shot.value()
        }
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test func manyRacersOfferAtOnceAndExactlyOneWins() async throws {
        for round in 0..<200 {
            let shot = OneShot<Int>()
            let waiter = Task { try await shot.value() }
            let wins = await withTaskGroup(of: Bool.self) { group in
                for n in 0..<8 { group.addTask { shot.settle(.success(n)) } }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1, "round \(round)")
            #expect((0..<8).contains(try await waiter.value))
        }
    }
}
