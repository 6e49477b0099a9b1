extension Array where Element == Double {
    /// The harmonic mean of throughput samples, the estimate every rung choice starts from: one slow sample pulls it
    /// down more than a fast one lifts it, which suits a player that fears stalls. nil before any sample.
    var harmonicMean: Double? {
        isEmpty ? nil : Double(count) / reduce(0) { $0 + 1 / $1 }
    }
}
