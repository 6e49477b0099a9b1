/// A smooth function of one variable sampled on 16,385 points and read with linear interpolation, clamped to its
/// domain. `squareRootOf` samples over the square root of the input (for powers with an infinite slope at 0, such
/// as x^(1/2.4), which a uniform grid reads badly near black).
struct SampledCurve: Sendable {
    private let samples: [Double]
    private let lower: Double
    private let scale: Double
    private let squareRoot: Bool
    private static let steps = 16384

    init(over domain: ClosedRange<Double>, _ function: (Double) -> Double) {
        lower = domain.lowerBound
        scale = Double(Self.steps) / (domain.upperBound - domain.lowerBound)
        squareRoot = false
        samples = (0...Self.steps).map {
            function(domain.lowerBound + Double($0) / Double(Self.steps) * (domain.upperBound - domain.lowerBound))
        }
    }

    /// Over 0...1, sampled at the squares of an even grid.
    init(squareRootOf function: (Double) -> Double) {
        lower = 0
        scale = Double(Self.steps)
        squareRoot = true
        samples = (0...Self.steps).map {
            let u = Double($0) / Double(Self.steps)
            return function(u * u)
        }
    }

    subscript(_ x: Double) -> Double {
        let t = min(max(((squareRoot ? max(x, 0).squareRoot() : x) - lower) * scale, 0), Double(Self.steps))
        let i = min(Int(t), Self.steps - 1)
        let f = t - Double(i)
        return samples[i] + (samples[i + 1] - samples[i]) * f
    }
}
