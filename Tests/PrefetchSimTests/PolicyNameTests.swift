import PrefetchSim
import TestTraits
import Testing

@Suite(.offThePool, .timeLimit(.minutes(5))) struct PolicyNameTests {
    @Test func everyNameRoundTripsThroughItsSpelling() throws {
        for name in PolicyName.allCases {
            #expect(PolicyName(rawValue: name.rawValue) == name)
            #expect(try PolicyName(parsing: name.rawValue) == name)
        }
        #expect(try PolicyName(parsing: "none") == .noPrefetch)
        #expect(try PolicyName(parsing: "window:3") == .windowOf(3))
        #expect(try PolicyName(parsing: "no_save") == .noSave)
        #expect(try PolicyName(parsing: "A2") == .a2)
    }

    @Test func listsTheNamesHelpShows() {
        #expect(
            PolicyName.validNames == [
                "none", "next1", "window", "window:K", "aware", "W0", "W1", "W2", "W4", "A2", "no_save",
                "fixed_preload", "pdas", "lookahead",
            ])
        #expect(PolicyName.clientModeNames == ["none", "next1", "window", "window:K", "aware"])
    }

    @Test(arguments: ["bogus", "", "w2", "window:", "window:5", "window:-1", "window:03", " window"])
    func rejectsAnUnknownNameListingTheValidOnes(_ text: String) {
        #expect(throws: PolicyNameError.unknown(text)) { try PolicyName(parsing: text) }
        #expect(PolicyName(rawValue: text) == nil)
        let message = PolicyNameError.unknown(text).description
        #expect(message.contains("\"\(text)\""))
        for valid in PolicyName.validNames { #expect(message.contains(valid)) }
    }

    @Test func clientModeAcceptsExactlyTheNamesItHasAWindowFor() throws {
        for name in PolicyName.allCases {
            let configured =
                (try? ClientRun.configuration(policy: name, base: ClientConfiguration())) != nil
            #expect(configured == name.runsInClientMode, "\(name)")
        }
        #expect(throws: PolicyNameError.challengeOnly(.noSave)) {
            try ClientRun.configuration(policy: .noSave, base: ClientConfiguration())
        }
        let message = PolicyNameError.challengeOnly(.noSave).description
        #expect(message.contains("no_save") && message.contains("window:K") && !message.contains("fixed_preload"))
    }

    @Test func clientNamesRunTheirReferenceWindowsInChallengeMode() {
        #expect(PolicyName.noPrefetch.makeMMGCPolicy().name == "W0")
        #expect(PolicyName.next1.makeMMGCPolicy().name == "W1")
        #expect(PolicyName.window.makeMMGCPolicy().name == "W2")
        #expect(PolicyName.windowOf(3).makeMMGCPolicy().name == "window:3")
        for name in PolicyName.allCases where !name.runsInClientMode {
            #expect(name.makeMMGCPolicy().name == name.rawValue)
        }
    }
}
