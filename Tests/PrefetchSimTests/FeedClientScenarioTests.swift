import PrefetchSim
import TestTraits
import Testing

/// Scripted scrolls through the player-pool / prefetch-window model, asserting on what happened.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct FeedClientScenarioTests {
    /// 5 catalog videos of 8 one-second chunks (120/240/400 kB) with a falling retention curve.
    static let catalog = (0..<5).map { i in
        ShortVideo(
            name: "v\(i)", chunkBytes: [120_000, 240_000, 400_000].map { [Int](repeating: $0, count: 8) },
            retention: (0...8).map { 1 - Double($0) * 0.1 })
    }

    static func flat(_ mbps: Double) -> NetworkTrace {
        NetworkTrace(
            name: "\(mbps) Mbps", times: (0...600).map(Double.init), mbps: [Double](repeating: mbps, count: 601))
    }

    func simulate(
        _ script: [ScrollStep], mbps: Double = 20, _ configure: (inout ClientConfiguration) -> Void = { _ in }
    ) -> ClientReport {
        var configuration = ClientConfiguration()
        configure(&configuration)
        return FeedClientSimulator(catalog: Self.catalog, network: Self.flat(mbps), configuration: configuration).run(
            script)
    }

    @Test func neighboursArePrefetchedToAboutThreeSeconds() {
        let report = simulate([.watch(milliseconds: 4000)])
        #expect(report.prefetched(1).count == 3)
        #expect(report.prefetched(2).count == 3)
        #expect(report.prefetched(3).isEmpty)
        #expect(report.playersCreated == 3)
    }

    @Test func fastScrollThroughFiftyItemsNeverCreatesAPlayerAfterWarmUp() {
        let script =
            [ScrollStep](repeating: .watch(milliseconds: 300), count: 1)
            + (0..<50).flatMap { _ in [ScrollStep.swipe, .watch(milliseconds: 300)] }
        let report = simulate(script)
        #expect(report.playersCreated == 3)
        #expect(report.forwardSwipes == 50)
        #expect(report.pageRequests >= 5)
        #expect(report.bytesDownloaded == report.bytesPlayed + report.bytesWasted + report.bytesStillBuffered)
        // At 0.3 s an item the current video's own 3 s come first, so the next one is rarely ready;
        // at 1.5 s an item the window has time to fill.
        let paced = simulate(
            [.watch(milliseconds: 1500)] + (0..<50).flatMap { _ in [ScrollStep.swipe, .watch(milliseconds: 1500)] })
        #expect(paced.prefetchHitRate > 0.9)
        #expect(report.prefetchHitRate < paced.prefetchHitRate)
    }

    @Test func swipingBackFindsThePreviousItemStillBuffered() {
        let report = simulate([
            .watch(milliseconds: 3000), .swipe, .watch(milliseconds: 2000), .swipeBack, .watch(milliseconds: 500),
        ])
        let startups = report.events.compactMap { event -> Int? in
            if case let .playbackStarted(item, startup) = event.kind, item == 0 { return startup }
            return nil
        }
        // The first start waits for a chunk; coming back, playback resumes at once from the kept buffer.
        #expect(startups.count == 2)
        #expect(startups.first! > 0 && startups.last == 0)
        #expect(report.events.contains { if case .swiped(from: 1, to: 0) = $0.kind { true } else { false } })
    }

    @Test func slowThreeGLinkStallsAndStaysOnTheLowestRung() {
        let script: [ScrollStep] = [
            .watch(milliseconds: 6000), .swipe, .watch(milliseconds: 6000), .swipe, .watch(milliseconds: 6000),
        ]
        let report = simulate(script, mbps: 0.5) { $0.networkClass = .cellular3G }
        #expect(
            report.events.allSatisfy { if case let .downloadStarted(_, _, rung) = $0.kind { rung == 0 } else { true } })
        #expect(report.stallRatio > 0.2)
        let fast = simulate(script, mbps: 50) { $0.networkClass = .wifi }
        #expect(fast.stallRatio < report.stallRatio)
        #expect(fast.events.contains { if case .downloadStarted(_, _, 2) = $0.kind { true } else { false } })
    }

    @Test func thePageBoundaryTriggersTheNextPageThreeItemsBeforeTheEnd() {
        let script =
            [ScrollStep.watch(milliseconds: 200)]
            + (0..<7).flatMap { _ in [ScrollStep.swipe, .watch(milliseconds: 200)] }
        let report = simulate(script)
        let requests = report.events.filter { if case .pageRequested = $0.kind { true } else { false } }
        #expect(requests.count == 1)
        // Item 7 is 3 from the end of the first 10: the request goes out on the swipe that reaches it.
        let swipeTo7 = report.events.first { if case .swiped(from: 6, to: 7) = $0.kind { true } else { false } }
        #expect(requests.first?.time == swipeTo7?.time)
        #expect(report.events.contains { if case .pageLoaded(page: 1, items: 10) = $0.kind { true } else { false } })
    }

    @Test func memoryWarningDropsBuffersOutsideCurrentPlusMinusTwo() {
        let script: [ScrollStep] =
            [.watch(milliseconds: 4000)] + (0..<4).flatMap { _ in [ScrollStep.swipe, .watch(milliseconds: 3000)] } + [
                .memoryWarning
            ]
        let report = simulate(script)
        let dropped = report.events.compactMap {
            if case let .buffersDropped(items, _) = $0.kind { return items } else { return nil }
        }
        #expect(dropped.count == 1)
        #expect(dropped[0].allSatisfy { abs($0 - 4) > 2 })
        #expect(!dropped[0].isEmpty)
    }

    @Test func lowBatteryShrinksTheWindowAndDropsARung() {
        let normal = simulate([.watch(milliseconds: 5000)]) { $0.networkClass = .wifi }
        let saving = simulate([.lowBattery(true), .watch(milliseconds: 5000)]) { $0.networkClass = .wifi }
        #expect(!normal.prefetched(2).isEmpty)
        #expect(saving.prefetched(2).isEmpty)
        #expect(
            saving.events.allSatisfy { if case let .downloadStarted(_, _, rung) = $0.kind { rung <= 1 } else { true } })
    }

    @Test func sameInputsGiveTheSameLogByteForByte() {
        let script: [ScrollStep] = [
            .watch(milliseconds: 2500), .swipe, .watch(milliseconds: 900), .swipe, .swipeBack,
            .watch(milliseconds: 4000),
        ]
        #expect(simulate(script, mbps: 3).log == simulate(script, mbps: 3).log)
        #expect(simulate(script, mbps: 3).log != simulate(script, mbps: 30).log)
    }
}

extension FeedClientScenarioTests {
    @Test func clientRunMapsPoliciesToWindowsAndSumsSessions() throws {
        let base = ClientConfiguration()
        func window(_ policy: PolicyName) throws -> [Int] {
            let configuration = try ClientRun.configuration(policy: policy, base: base)
            return [configuration.ahead, configuration.behind]
        }
        #expect(try window(.noPrefetch) == [0, 0])
        #expect(try window(.window) == [2, 1])
        #expect(try window(.windowOf(4)) == [4, 1])
        #expect(try window(.aware) == [2, 1])
        #expect(try ClientRun.configuration(policy: .aware, base: base).retentionPrefetch == RetentionPrefetch())
        var tuned = base
        tuned.retentionPrefetch = RetentionPrefetch()
        tuned.retentionPrefetch?.keep = 0.5
        #expect(try ClientRun.configuration(policy: .aware, base: tuned).retentionPrefetch?.keep == 0.5)
        #expect(try ClientRun.configuration(policy: .window, base: tuned).retentionPrefetch == nil)
        #expect(throws: PolicyNameError.challengeOnly(.w2)) { try window(.w2) }
        let users = [[3000, 2000, 8000, 500, 4000], [8000, 8000, 1000, 1000, 1000]]
        let none = try ClientRun.run(catalog: Self.catalog, traces: [Self.flat(8)], users: users, policy: .noPrefetch)
        let window = try ClientRun.run(catalog: Self.catalog, traces: [Self.flat(8)], users: users, policy: .window)
        #expect(none.sessions == 2 && window.sessions == 2)
        #expect(none.prefetchHitRate == 0)
        #expect(window.prefetchHitRate > 0.5)
        #expect(window.startupP50Milliseconds <= none.startupP50Milliseconds)
        #expect(window.playersCreated <= 3)
    }
}

extension FeedClientScenarioTests {
    @Test func playersMoveThroughTheirStates() {
        let report = simulate([.watch(milliseconds: 4000), .swipe, .watch(milliseconds: 500)])
        let states = report.events.compactMap { event -> (Int, Int?, PlayerState)? in
            if case let .playerState(player, item, state) = event.kind { return (player, item, state) }
            return nil
        }
        // Item 0 loads, plays, and is paused once the user moves to item 1, which then plays.
        #expect(states.contains { $0.1 == 0 && $0.2 == .loading })
        #expect(states.contains { $0.1 == 0 && $0.2 == .playing })
        #expect(states.contains { $0.1 == 0 && $0.2 == .paused })
        #expect(states.contains { $0.1 == 1 && $0.2 == .ready })
        #expect(states.last { $0.1 == 1 }?.2 == .playing)
    }

    @Test func backSwipesInTheUserModelAreSeeded() {
        let watch = [3000, 2000, 4000, 1000, 5000]
        let a = ClientRun.script(watch: watch, backSwipeProbability: 0.5, pauseMilliseconds: 200, seed: 3)
        #expect(a == ClientRun.script(watch: watch, backSwipeProbability: 0.5, pauseMilliseconds: 200, seed: 3))
        #expect(a.filter { $0 == .swipeBack }.count >= 1)
        #expect(
            ClientRun.script(watch: watch, backSwipeProbability: 0, pauseMilliseconds: 0, seed: 3).filter {
                $0 == .swipeBack
            }.isEmpty)
        #expect(a.contains(.watch(milliseconds: 200)))
    }
}
