/// One measured fetch: its bytes and how long it took, request to last byte (a player's segment download).
public struct ThroughputSample: Sendable, Equatable {
    public var bytes: Int
    public var milliseconds: Int

    public init(bytes: Int, milliseconds: Int) {
        self.bytes = bytes
        self.milliseconds = milliseconds
    }

    /// Fetches smaller than this say more about the round trip than about the link: they estimate the round trip
    /// and are left out of traces.
    public static let smallestLinkSampleBytes = 16_384

    /// The round trip a session's fetches show: the quickest of its small fetches (init segments, playlists), which
    /// are nearly all waiting; nil when it has none.
    public static func roundTripMilliseconds(of samples: [ThroughputSample]) -> Int? {
        samples.filter { $0.bytes < smallestLinkSampleBytes && $0.milliseconds > 0 }.map(\.milliseconds).min()
    }
}

extension NetworkTrace {
    /// A trace of measured fetches laid back to back: each one's throughput, after `roundTripMilliseconds` of
    /// waiting (the client model adds its own round trip to every request), held for as long as it transferred.
    /// Gaps between fetches (the player idle) are not in it, and fetches that overlapped each saw only part of the
    /// link, so the trace is a lower bound on what the link carried. nil when no fetch is large enough.
    public init?(name: String, samples: [ThroughputSample], roundTripMilliseconds: Int = 0) {
        let usable = samples.filter {
            $0.bytes >= ThroughputSample.smallestLinkSampleBytes && $0.milliseconds > roundTripMilliseconds
        }
        guard let first = usable.first else { return nil }
        func mbps(_ sample: ThroughputSample) -> Double {
            Double(sample.bytes) * 8 / Double(sample.milliseconds - roundTripMilliseconds) / 1000
        }
        var times = [0.0]
        var rates = [mbps(first)]
        for sample in usable {
            times.append(times[times.count - 1] + Double(sample.milliseconds - roundTripMilliseconds) / 1000)
            rates.append(mbps(sample))
        }
        self.init(name: name, times: times, mbps: rates)
    }
}
