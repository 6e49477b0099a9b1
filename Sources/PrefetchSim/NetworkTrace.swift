/// A bandwidth trace: row i's bandwidth applies from time[i-1] to time[i]; the trace loops at its end, back to the
/// clock's `restart` time.
public struct NetworkTrace: Sendable, Equatable {
    public let name: String
    public let times: [Double]
    public let mbps: [Double]

    public init(name: String, times: [Double], mbps: [Double]) {
        precondition(times.count == mbps.count && times.count >= 2, "a trace needs at least two rows")
        self.name = name
        self.times = times
        self.mbps = mbps
    }

    /// Where a sequential download stands on the trace: the row whose interval holds `time`, and the loop offset.
    public struct Clock: Sendable, Equatable {
        public var time: Double
        var row: Int
        var offset: Double
        /// The trace time a wrap goes back to: time[0] in the client model, 0 in the challenge's
        /// (`challengeStart`). Row 1 then holds from here to time[1].
        let restart: Double
    }

    /// The clock `seconds` after the trace's start, looping back to time[0], for clients whose downloads follow
    /// wall time.
    public func clock(at seconds: Double) -> Clock {
        let span = times[times.count - 1] - times[0]
        let loops = span > 0 ? (seconds / span).rounded(.down) : 0
        let offset = loops * span
        let time = times[0] + seconds
        var row = 1
        while row < times.count - 1, times[row] + offset <= time { row += 1 }
        return Clock(time: time, row: row, offset: offset, restart: times[0])
    }

    /// Seconds to move `bytes` at `efficiency` × the trace's bandwidth from `clock`, integrated piecewise.
    public func transfer(bytes: Double, efficiency: Double, from clock: inout Clock) -> Double {
        let begin = clock.time
        var remaining = bytes
        while remaining > 0 {
            let end = times[clock.row] + clock.offset
            let rate = mbps[clock.row] * 1_000_000 / 8 * efficiency
            let capacity = (end - clock.time) * rate
            if rate > 0, remaining <= capacity {
                clock.time += remaining / rate
                remaining = 0
            } else {
                remaining -= max(0, capacity)
                clock.time = end
                clock.row += 1
                if clock.row == times.count {
                    clock.row = 1
                    clock.offset += times[times.count - 1] - clock.restart
                }
            }
        }
        return clock.time - begin
    }
}
