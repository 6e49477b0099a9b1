import PrefetchSim
import PropertyBased
import TestTraits
import Testing

/// Invariants of the client model over random scrolls, links and pool sizes.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct FeedClientPropertyTests {
    static let steps = Gen.oneOf(
        Gen.int(in: 50...5000).map { ScrollStep.watch(milliseconds: $0) },
        Gen.always(ScrollStep.swipe),
        Gen.always(ScrollStep.swipeBack),
        Gen.always(ScrollStep.memoryWarning),
        Gen.always(ScrollStep.waitForPage),
        Gen.bool.map { ScrollStep.lowBattery($0) }
    ).array(of: 1...60)

    func run(_ script: [ScrollStep], mbps: Double, players: Int) -> ClientReport {
        var configuration = ClientConfiguration()
        configuration.players = players
        configuration.feedLength = 40
        return FeedClientSimulator(
            catalog: FeedClientScenarioTests.catalog, network: FeedClientScenarioTests.flat(mbps),
            configuration: configuration
        ).run(script)
    }

    @Test func poolNeverExceedsItsSize() async {
        await propertyCheck(count: 150, input: Self.steps, Gen.double(in: 0.3...40), Gen.int(in: 3...5)) {
            script, mbps, players in
            let report = run(script, mbps: mbps, players: players)
            #expect(report.playersCreated <= players)
            let created = report.events.filter { if case .playerCreated = $0.kind { true } else { false } }
            #expect(created.count == report.playersCreated)
        }
    }

    @Test func nothingOutsideTheWindowIsFetched() async {
        await propertyCheck(count: 150, input: Self.steps, Gen.double(in: 0.3...40)) { script, mbps in
            let report = run(script, mbps: mbps, players: 3)
            var current = 0, battery = false
            for event in report.events {
                switch event.kind {
                case let .swiped(_, to): current = to
                case let .lowBattery(on): battery = on
                case let .downloadStarted(item, _, _):
                    let ahead = battery ? 1 : 2, behind = battery ? 0 : 1
                    #expect(
                        (current - behind...current + ahead).contains(item), "item \(item) fetched while on \(current)")
                default: break
                }
            }
        }
    }

    @Test func bytesAreAccountedForAndNeverNegative() async {
        await propertyCheck(count: 150, input: Self.steps, Gen.double(in: 0.3...40)) { script, mbps in
            let report = run(script, mbps: mbps, players: 4)
            #expect(report.bytesPlayed >= 0 && report.bytesWasted >= 0 && report.bytesStillBuffered >= 0)
            #expect(report.bytesDownloaded == report.bytesPlayed + report.bytesWasted + report.bytesStillBuffered)
            #expect(report.stallMilliseconds >= 0 && report.startupDelays.allSatisfy { $0 >= 0 })
            #expect(report.peakBufferedBytes >= 0)
        }
    }
}

extension FeedClientPropertyTests {
    @Test func onlyTheCurrentItemEverPlays() async {
        await propertyCheck(count: 150, input: Self.steps, Gen.double(in: 0.3...40), Gen.int(in: 3...5)) {
            script, mbps, players in
            let report = run(script, mbps: mbps, players: players)
            var current = 0
            var states: [Int: (item: Int?, state: PlayerState)] = [:]
            for event in report.events {
                switch event.kind {
                case let .swiped(_, to): current = to
                case let .playerState(player, item, state):
                    states[player] = (item, state)
                    if state == .playing {
                        #expect(
                            item == current,
                            "player \(player) plays item \(String(describing: item)) while \(current) is current")
                    }
                default: break
                }
                #expect(states.values.filter { $0.state == .playing }.count <= 1)
            }
        }
    }
}
