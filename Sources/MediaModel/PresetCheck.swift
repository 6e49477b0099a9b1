/// The value rules of one preset, checked after it decoded; the first problem becomes a `PresetError`.
public struct PresetCheck: Sendable {
    public struct Problem: Sendable, Equatable {
        /// Where in the JSON, as `rungs[1].short_side`.
        public var keyPath: String
        public var message: String
    }

    public private(set) var problems: [Problem] = []

    public init() {}

    /// Records a problem at `keyPath` unless `condition` holds.
    public mutating func require(_ condition: Bool, at keyPath: String, _ message: @autoclosure () -> String) {
        if !condition { problems.append(Problem(keyPath: keyPath, message: message())) }
    }

    public mutating func positive<Value: Numeric & Comparable>(_ value: Value, at keyPath: String) {
        require(value > 0, at: keyPath, "must be positive, got \(value)")
    }

    public mutating func nonNegative<Value: Numeric & Comparable>(_ value: Value, at keyPath: String) {
        require(value >= 0, at: keyPath, "must not be negative, got \(value)")
    }

    /// Records a problem unless `value` is at most `limit`: the ceilings that keep a preset's numbers inside the
    /// integers they are multiplied or converted into (a bit rate × 1000 in Int64, a sample rate in a C int).
    public mutating func atMost<Value: Comparable>(_ value: Value, _ limit: Value, at keyPath: String) {
        require(value <= limit, at: keyPath, "must be at most \(limit), got \(value)")
    }

    public mutating func within<Value: Comparable>(_ value: Value, _ range: ClosedRange<Value>, at keyPath: String) {
        require(
            range.contains(value), at: keyPath, "must be from \(range.lowerBound) to \(range.upperBound), got \(value)")
    }
}
