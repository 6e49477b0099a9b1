/// What the transcoder will make of one source: the rungs with their exact sizes, and the output frame rate.
public struct LadderPlan: Sendable, Equatable {
    public struct Rung: Sendable, Equatable {
        public var id: String
        public var width: Int
        public var height: Int
        /// The H.264 rendition's CRF; fractional when content-aware rates chose it (`VideoCodec.crfStep`).
        public var crf: Double
        public var maxBitrateKbps: Int
        public var bufferKbits: Int
        public var audioBitrateKbps: Int
        /// The CRF of each codec other than H.264 (`crf`); see `crf(_:)`.
        public var otherCRFs: [VideoCodec: Double] = [:]
        /// The SSIM-Y each codec's CRF was chosen to reach, when the content-aware analysis chose it.
        public var targetSSIMY: [VideoCodec: Double] = [:]

        /// The CRF of this rung's rendition in `codec`.
        public func crf(_ codec: VideoCodec) -> Double { codec == .h264 ? crf : otherCRFs[codec] ?? crf }

        /// Sets the CRF of this rung's rendition in `codec`.
        public mutating func setCRF(_ value: Double, for codec: VideoCodec) {
            if codec == .h264 { crf = value } else { otherCRFs[codec] = value }
        }
    }

    public var rungs: [Rung]
    /// Output frames per second as a fraction (30/1, 30000/1001, 25/1).
    public var frameRate: (numerator: Int, denominator: Int)
    /// Frames between IDRs, the same on every rung.
    public var keyframeInterval: Int
    /// Clockwise rotation to apply to decoded pictures.
    public var rotation: Int
    /// Every rung is made in each of these, H.264 first.
    public var codecs: [VideoCodec] = [.h264]

    public var frameRateValue: Double { Double(frameRate.numerator) / Double(frameRate.denominator) }

    public static func == (a: LadderPlan, b: LadderPlan) -> Bool {
        a.rungs == b.rungs && a.frameRate == b.frameRate && a.keyframeInterval == b.keyframeInterval
            && a.rotation == b.rotation
            && a.codecs == b.codecs
    }
}
