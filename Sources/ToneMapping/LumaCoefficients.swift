/// The luma weights of a non-constant-luminance Y'CbCr matrix (Kr, Kb; Kg = 1 - Kr - Kb).
package struct LumaCoefficients: Sendable, Equatable {
    package var kr: Double
    package var kb: Double
    package var kg: Double { 1 - kr - kb }

    package static let bt709 = LumaCoefficients(kr: 0.2126, kb: 0.0722)
    package static let bt2020 = LumaCoefficients(kr: 0.2627, kb: 0.0593)
    package static let bt601 = LumaCoefficients(kr: 0.299, kb: 0.114)

    /// R'G'B' from Y' (0...1) and Cb, Cr (-0.5...0.5).
    package func rgb(y: Double, cb: Double, cr: Double) -> (r: Double, g: Double, b: Double) {
        let r = y + 2 * (1 - kr) * cr
        let b = y + 2 * (1 - kb) * cb
        return (r, (y - kr * r - kb * b) / kg, b)
    }

    /// Y', Cb, Cr from R'G'B'.
    package func ycbcr(r: Double, g: Double, b: Double) -> (y: Double, cb: Double, cr: Double) {
        let y = kr * r + kg * g + kb * b
        return (y, (b - y) / (2 * (1 - kb)), (r - y) / (2 * (1 - kr)))
    }

    /// Linear-light luminance of RGB in these primaries' weights.
    package func luminance(_ rgb: [Double]) -> Double { kr * rgb[0] + kg * rgb[1] + kb * rgb[2] }
}
