/// The challenge's three rungs, in kbps. The client model borrows the same ladder so the two modes compare.
public enum MMGCRates {
    public static let kbps: [Double] = [750, 1200, 1850]

    /// The highest rung at most 0.8 × the harmonic mean of the samples; the lowest before any sample.
    public static func rung(for samples: [Double]) -> Int {
        guard !samples.isEmpty else { return 0 }
        let harmonic = Double(samples.count) / samples.reduce(0) { $0 + 1 / $1 }
        return kbps.lastIndex { $0 <= 0.8 * harmonic } ?? 0
    }
}
