internal import PrefetchSim

/// A bandwidth trace file (`reel simulate --network`): it is refused with the line that is wrong, or every transfer
/// on it ends, takes no less than the trace's fastest rate allows, and two transfers back to back take as long as
/// one of both sizes.
enum TraceContract {
    static let target = FuzzTarget(
        name: "trace", contract: "a read trace's transfers end, never beat its peak rate, and add up"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        let trace: NetworkTrace
        do throws(MMGCData.LoadError) {
            trace = try MMGCData.trace(text: String(decoding: bytes, as: UTF8.self), name: "fuzz")
        } catch {
            try expect(
                error.message.hasPrefix("line ") || error.message.hasPrefix("a trace")
                    || error.message.hasPrefix("every rate"),
                "a refusal that names no line: \(error)")
            return
        }
        let span = trace.times[trace.times.count - 1] - trace.times[0]
        let delivered = zip(trace.times.dropFirst(), zip(trace.times, trace.mbps.dropFirst())).reduce(0.0) {
            $0 + ($1.0 - $1.1.0) * $1.1.1
        }
        // The contract's own bound, not the parser's: a trace that delivers under 10 kbit/s on average is legal, but
        // a megabyte on it takes longer than a fuzz run should; past 10^6 s a Double clock loses the milliseconds.
        guard span >= 0.01, span <= 1e6, delivered / span >= 0.01 else { return }
        let peak = trace.mbps.dropFirst().max() ?? 0
        // A clock near `start` keeps about 16 digits: a transfer's time is only that exact.
        for (bytes, start) in [(1.0, 0.0), (100_000.0, 0.5), (1_000_000.0, span * 1.5)] {
            var clock = trace.clock(at: start)
            let seconds = trace.transfer(bytes: bytes, efficiency: 0.95, from: &clock)
            let fastest = bytes / (peak * 1_000_000 / 8 * 0.95)
            try expect(
                seconds.isFinite && seconds >= fastest * (1 - 1e-6) - 1e-12 * max(1, start),
                "\(bytes) bytes from \(start) s took \(seconds) s; at the peak rate they take \(fastest) s")
            let more = trace.transfer(bytes: bytes / 2, efficiency: 0.95, from: &clock)
            var whole = trace.clock(at: start)
            let both = trace.transfer(bytes: bytes * 1.5, efficiency: 0.95, from: &whole)
            try expect(
                abs(seconds + more - both) <= 1e-6 * max(1, both),
                "\(bytes) then \(bytes / 2) bytes from \(start) s took \(seconds) + \(more) s, both at once \(both) s")
        }
    }
}
