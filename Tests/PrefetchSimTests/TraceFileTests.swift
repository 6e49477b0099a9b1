import PrefetchSim
import Testing

/// `reel simulate --network FILE`: a trace is two numbers a line, and one the simulator cannot run on is refused
/// with the line that is wrong. Before, such lines were skipped, and a trace whose rates were all 0 (or whose times
/// stood still) kept the first transfer looping for ever.
@Suite(.timeLimit(.minutes(1))) struct TraceFileTests {
    static func refusal(_ text: String) -> String? {
        do throws(MMGCData.LoadError) {
            _ = try MMGCData.trace(text: text, name: "t")
            return nil
        } catch {
            return error.message
        }
    }

    @Test func aTraceReadsSpacesTabsBlankLinesAndCRLF() throws {
        let trace = try MMGCData.trace(text: "0 4.5\r\n\n0.5\t2\n1 3 extra\n", name: "t")
        #expect(trace.times == [0, 0.5, 1] && trace.mbps == [4.5, 2, 3])
    }

    @Test(arguments: [
        ("0 1\ntime mbps\n1 1\n", "line 2: expected a time in seconds and a rate in Mbps"),
        ("0 1\n1\n", "line 2: expected a time in seconds and a rate in Mbps"),
        // Found by the trace fuzz target: Double("1.5\0junk") reads 1.5, as strtod stops at the NUL.
        ("0 1\n1.5\u{0}junk 1\n", "line 2: expected a time in seconds and a rate in Mbps"),
        ("0 1\n1 nan\n", "line 2: the time and the rate must be finite"),
        ("0 1\ninf 1\n", "line 2: the time and the rate must be finite"),
        ("-1 1\n1 1\n", "line 1: the time may not be negative"),
        ("0 1\n1 -2\n", "line 2: the rate may not be negative"),
        ("0 1\n2 1\n1 1\n", "line 3: the time must be later than the line before's"),
        ("0 1\n0 1\n", "line 2: the time must be later than the line before's"),
        ("0 1\n", "a trace needs at least two rows"),
        ("0 5\n1 0\n2 0\n", "every rate after the first line is 0: no byte would ever arrive"),
    ])
    func aTraceTheSimulatorCannotRunOnIsRefused(_ text: String, _ message: String) {
        #expect(
            Self.refusal(text)?.hasPrefix(message) == true, "\(text.debugDescription): \(Self.refusal(text) ?? "read")")
    }

    /// One zero-rate interval is a dead spot in the link, not a dead link: a transfer waits it out.
    @Test func aZeroRateIntervalIsWaitedOut() throws {
        let trace = try MMGCData.trace(text: "0 1\n1 0\n2 8\n", name: "t")
        var clock = trace.clock(at: 0.5)
        #expect(abs(trace.transfer(bytes: 1_000_000, efficiency: 1, from: &clock) - 1.5) < 1e-9)
    }
}
