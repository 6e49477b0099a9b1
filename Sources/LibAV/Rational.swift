internal import CFFmpeg

/// An exact fraction, as libav uses for time bases and frame rates.
package struct Rational: Sendable, Hashable, CustomStringConvertible {
    package var numerator: Int32
    package var denominator: Int32

    package init(_ numerator: Int32, _ denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    init(_ value: AVRational) { self.init(value.num, value.den) }

    var av: AVRational { AVRational(num: numerator, den: denominator) }

    /// The value as a double; 0 for 0/0 or x/0, which libav uses for "unknown".
    package var doubleValue: Double { denominator == 0 ? 0 : Double(numerator) / Double(denominator) }
    package var isValid: Bool { numerator > 0 && denominator > 0 }
    package var inverted: Rational { Rational(denominator, numerator) }
    package var description: String { "\(numerator)/\(denominator)" }

    /// Rescales `value` from this time base to `other` with libav's rounding (no intermediate overflow).
    package func rescale(_ value: Int64, to other: Rational) -> Int64 {
        av_rescale_q(value, av, other.av)
    }

    /// The microsecond time base libav uses for container durations.
    package static let microseconds = Rational(1, 1_000_000)
}

/// libav's "no timestamp" marker, exposed so callers never see AV_NOPTS_VALUE.
package let noTimestamp: Int64 = CFFmpeg_NOPTS_VALUE()
