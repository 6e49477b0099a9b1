import Foundation

/// `--network synthetic:N`: N bandwidth traces from a fixed seeded generator, so a policy's parameters can be chosen
/// on traces other than the four challenge sets it is scored on. Each trace is 600 s in 0.5 s rows around its own
/// mean, drawn log-uniformly from 0.5 to 6 Mbps: regimes that last 15 s on average at a log-normal multiple of the
/// mean (σ 0.6), ±25 % noise per row, and 1-4 s outages at 0.05 Mbps about every 100 s. The same N always gives the
/// same traces, and trace k does not depend on N.
public enum SyntheticTraces {
    public static let counts = 1...1000
    static let rows = 1200
    static let step = 0.5

    /// - Precondition: `count` is in `counts` (callers parse it with `count(parsing:)`).
    public static func make(count: Int) -> [NetworkTrace] {
        precondition(counts.contains(count), "synthetic trace count out of range")
        return (0..<count).map(trace)
    }

    /// The count in `synthetic:N`, or nil if `spelling` is not of that form.
    /// - Throws: `MMGCData.LoadError` when N is not a whole number in `counts`.
    public static func count(parsing spelling: String) throws(MMGCData.LoadError) -> Int? {
        guard spelling.hasPrefix("synthetic:") else { return nil }
        let text = spelling.dropFirst("synthetic:".count)
        guard let count = Int(text), counts.contains(count) else {
            throw MMGCData.LoadError(
                path: spelling, message: "synthetic:N takes a whole number of traces from 1 to \(counts.upperBound)")
        }
        return count
    }

    static func trace(_ index: Int) -> NetworkTrace {
        var random = UserSampler.Generator(state: 0x5EED_0000 &+ UInt64(index))
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        func normal() -> Double { (-2 * log(1 - uniform())).squareRoot() * cos(2 * .pi * uniform()) }
        let mean = exp(log(0.5) + (log(6.0) - log(0.5)) * uniform())
        var level = mean
        var outage = 0
        var times: [Double] = []
        var mbps: [Double] = []
        for row in 0..<rows {
            if uniform() < step / 15 { level = mean * exp(0.6 * normal()) }
            if outage == 0, uniform() < step / 100 { outage = 2 + Int(uniform() * 7) }
            let rate: Double
            if outage > 0 {
                outage -= 1
                rate = 0.05
            } else {
                rate = max(0.05, level * (1 + 0.25 * normal()))
            }
            times.append(Double(row) * step)
            mbps.append(rate)
        }
        return NetworkTrace(name: "synthetic-\(index)", times: times, mbps: mbps)
    }
}
