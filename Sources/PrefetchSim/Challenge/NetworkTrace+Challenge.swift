extension NetworkTrace {
    /// The challenge simulator's clock. It starts at time[0], but each wrap goes back to 0, not to time[0]: its
    /// network module resets its clock to 0, assuming traces start there. On a trace whose first row is later, row 1
    /// then holds from 0 to time[1] on every loop after the first.
    public var challengeStart: Clock { Clock(time: times[0], row: 1, offset: 0, restart: 0) }
}
