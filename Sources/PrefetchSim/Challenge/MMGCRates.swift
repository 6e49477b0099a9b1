/// The challenge's three rungs, in kbps. The client model borrows the same ladder so the two modes compare.
public enum MMGCRates {
    public static let kbps: [Double] = [750, 1200, 1850]

    /// The highest rung at most 0.8 × the harmonic mean of the samples; the lowest before any sample.
    public static func rung(for samples: [Double]) -> Int {
        guard let harmonic = samples.harmonicMean else { return 0 }
        return kbps.lastIndex { $0 <= 0.8 * harmonic } ?? 0
    }
}
