/// The highlight roll-off from an HDR source's range to SDR: the identity up to a knee below reference white, then
/// a Möbius curve (the tone operator of mpv, libplacebo and FFmpeg's `tonemap=mobius`) that is C1 at the knee,
/// concave, and lands the source's peak on SDR white, so nothing below the peak clips.
///
/// BT.2390's EETF, aimed at reference white, was tried first: its knee follows the stated peak down (to 16 % of
/// reference white for a 4000 cd/m² MaxCLL, 42 % for 1000), dimming the mid-tones of every clip whose metadata
/// claims a high peak; and a fixed knee makes its Hermite spline overshoot. This curve keeps its knee, and
/// reference white lands at 91-93 % SDR signal for any peak from 1000 to 10000 cd/m² (docs/hls.md).
package struct ToneCurve: Sendable, Equatable {
    /// HDR reference white (cd/m²): what the curve's 1.0 is (BT.2408: 203).
    package let referenceWhite: Double
    /// The brightest the source holds (cd/m²), from its metadata; at least `referenceWhite`.
    package let peak: Double
    /// The relative light (1 = reference white) below which the curve is the identity.
    package let kneeLight: Double
    private let a: Double
    private let b: Double
    private let scale: Double

    package static let defaultKnee = 0.6

    package init(referenceWhite: Double = 203, peak: Double, knee: Double = ToneCurve.defaultKnee) {
        self.referenceWhite = referenceWhite
        self.peak = max(peak, referenceWhite)
        let top = self.peak / referenceWhite, j = min(max(knee, 0.05), 0.95)
        kneeLight = top > 1 ? j : 1
        a = -j * j * (top - 1) / (j * j - 2 * j + top)
        b = (j * j - 2 * j * top + top) / max(top - 1, 1e-9)
        scale = (b * b + 2 * b * j + j * j) / (b - a)
    }

    /// Display light relative to reference white (1 = SDR white) in, SDR relative light (0...1) out.
    package func map(_ relative: Double) -> Double {
        guard relative > 0 else { return 0 }
        guard relative > kneeLight, peak > referenceWhite else { return min(relative, 1) }
        return min(scale * (relative + a) / (relative + b), 1)
    }
}
