/// What the transcoder will make of one source: the rungs with their exact sizes, and the output frame rate.
package struct LadderPlan: Sendable, Equatable {
    package struct Rung: Sendable, Equatable {
        package var id: String
        package var width: Int
        package var height: Int
        /// The H.264 rendition's CRF; fractional when content-aware rates chose it (`VideoCodec.crfStep`).
        package var crf: Double
        package var maxBitrateKbps: Int
        package var bufferKbits: Int
        package var audioBitrateKbps: Int
        /// The CRF of each codec other than H.264 (`crf`); see `crf(_:)`.
        package var otherCRFs: [VideoCodec: Double] = [:]
        /// The SSIM-Y each codec's CRF was chosen to reach, when the content-aware analysis chose it.
        package var targetSSIMY: [VideoCodec: Double] = [:]

        /// The CRF of this rung's rendition in `codec`.
        package func crf(_ codec: VideoCodec) -> Double { codec == .h264 ? crf : otherCRFs[codec] ?? crf }

        /// Sets the CRF of this rung's rendition in `codec`.
        package mutating func setCRF(_ value: Double, for codec: VideoCodec) {
            if codec == .h264 { crf = value } else { otherCRFs[codec] = value }
        }
    }

    package var rungs: [Rung]
    /// Output frames per second as a fraction (30/1, 30000/1001, 25/1).
    package var frameRate: (numerator: Int, denominator: Int)
    /// Frames between IDRs, the same on every rung.
    package var keyframeInterval: Int
    /// Clockwise rotation to apply to decoded pictures.
    package var rotation: Int
    /// Every rung is made in each of these, H.264 first.
    package var codecs: [VideoCodec] = [.h264]

    package var frameRateValue: Double { Double(frameRate.numerator) / Double(frameRate.denominator) }

    package static func == (a: LadderPlan, b: LadderPlan) -> Bool {
        a.rungs == b.rungs && a.frameRate == b.frameRate && a.keyframeInterval == b.keyframeInterval
            && a.rotation == b.rotation
            && a.codecs == b.codecs
    }
}
