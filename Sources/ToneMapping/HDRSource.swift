/// What an HDR source is, as far as converting it to SDR goes: its transfer, matrix, primaries, range and peak.
package struct HDRSource: Sendable, Equatable {
    package enum Transfer: String, Sendable, Equatable {
        /// SMPTE ST 2084, absolute display light.
        case pq
        /// ARIB STD-B67, relative scene light, shown through BT.2100's OOTF.
        case hlg
    }

    package var transfer: Transfer
    package var matrix: LumaCoefficients
    package var primaries: Primaries
    package var isFullRange: Bool
    /// The brightest the source holds, cd/m²: MaxCLL, else the mastering display's peak, else 1000 (HLG: the
    /// nominal 1000 cd/m² display its OOTF is made for).
    package var peak: Double

    package init(
        transfer: Transfer, matrix: LumaCoefficients = .bt2020, primaries: Primaries = .bt2020,
        isFullRange: Bool = false, peak: Double = HDRSource.nominalPeak
    ) {
        self.transfer = transfer
        self.matrix = matrix
        self.primaries = primaries
        self.isFullRange = isFullRange
        self.peak = peak
    }

    /// The peak assumed when a source states none, and HLG's nominal display (BT.2100, BT.2408).
    package static let nominalPeak = 1000.0
    /// HDR reference white, cd/m² (BT.2408): HLG's 75 % signal and PQ's 203 cd/m².
    package static let referenceWhite = 203.0
    /// HLG's system gamma on the nominal 1000 cd/m² display (BT.2100 table 5).
    static let hlgSystemGamma = 1.2
}
