/// RobustMPC's throughput prediction: the harmonic mean of the last five samples over 1 + the largest relative
/// error of the last five predictions.
struct RobustThroughput: Sendable {
    private var lastPrediction: Double?
    private var errors: [Double] = []
    private(set) var predictedKbps: Double?

    /// Takes the view's newest sample when its last step was a download, and returns the prediction: nil until the
    /// first download, when the challenge's policies fetch the playing video at the lowest rung.
    mutating func observe(_ view: MMGCView) -> Double? {
        if case .download = view.previousStep, let sample = view.throughputKbps.last {
            record(sample: sample, window: view.throughputKbps)
        }
        return predictedKbps
    }

    mutating func record(sample: Double, window: [Double]) {
        if let lastPrediction, sample > 0 {
            errors.append(abs(lastPrediction - sample) / sample)
            if errors.count > 5 { errors.removeFirst() }
        }
        guard let harmonic = window.harmonicMean else { return }
        lastPrediction = harmonic
        predictedKbps = harmonic / (1 + (errors.max() ?? 0))
    }
}
