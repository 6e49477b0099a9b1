internal import Foundation

/// The transfer functions of ITU-R BT.2100 (PQ, HLG) and BT.1886, on one channel. PQ and the BT.1886 inverse work in
/// display light (cd/m² for PQ, relative for BT.1886); HLG's OETF works in scene light, 0...1.
package enum TransferFunction {
    // SMPTE ST 2084 constants.
    private static let m1 = 2610.0 / 16384
    private static let m2 = 2523.0 / 4096 * 128
    private static let c1 = 3424.0 / 4096
    private static let c2 = 2413.0 / 4096 * 32
    private static let c3 = 2392.0 / 4096 * 32

    /// PQ signal (0...1) to display light in cd/m² (0...10000).
    package static func pqToNits(_ signal: Double) -> Double {
        let p = pow(min(max(signal, 0), 1), 1 / m2)
        return 10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// Display light in cd/m² to a PQ signal (0...1).
    package static func nitsToPQ(_ nits: Double) -> Double {
        let y = pow(min(max(nits / 10000, 0), 1), m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    // ARIB STD-B67 constants.
    private static let a = 0.178_832_77
    private static let b = 1 - 4 * a
    private static let c = 0.5 - a * log(4 * a)

    /// HLG signal (0...1) to normalised scene light (0...1), the inverse OETF.
    package static func hlgToScene(_ signal: Double) -> Double {
        let e = min(max(signal, 0), 1)
        return e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
    }

    /// Normalised scene light (0...1) to an HLG signal, the OETF.
    package static func sceneToHLG(_ scene: Double) -> Double {
        let e = max(scene, 0)
        return e <= 1.0 / 12 ? (3 * e).squareRoot() : a * log(12 * e - b) + c
    }

    /// BT.1886's inverse EOTF for a display with zero black: relative light (0...1) to an SDR signal.
    package static func lightToSDR(_ light: Double) -> Double { pow(min(max(light, 0), 1), 1 / 2.4) }

    /// BT.1886's EOTF with zero black: an SDR signal to relative light.
    package static func sdrToLight(_ signal: Double) -> Double { pow(min(max(signal, 0), 1), 2.4) }
}
