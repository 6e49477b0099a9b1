import Testing
import ToneMapping

/// The BT.2390 EETF from a source's range to SDR: the identity below its knee, smooth and rising above it, the peak
/// at SDR white and nothing clipped below the peak.
@Suite(.timeLimit(.minutes(1))) struct ToneCurveTests {
    static let peaks: [Double] = [400, 600, 1000, 1500, 4000, 10000]

    @Test(arguments: peaks) func belowTheKneeItIsTheIdentity(peak: Double) {
        let curve = ToneCurve(peak: peak)
        #expect(curve.kneeLight == ToneCurve.defaultKnee, "the knee sits below reference white, whatever the peak")
        for step in 0...1000 {
            let light = curve.kneeLight * Double(step) / 1000
            #expect(abs(curve.map(light) - light) < 1e-12)
        }
    }

    @Test(arguments: peaks) func aboveTheKneeItRisesSmoothlyToWhiteAtThePeak(peak: Double) {
        let curve = ToneCurve(peak: peak)
        let top = peak / curve.referenceWhite
        var previous = curve.map(curve.kneeLight)
        var previousSlope = 1.0
        let steps = 20000
        for step in 1...steps {
            let light = curve.kneeLight + (top - curve.kneeLight) * Double(step) / Double(steps)
            let mapped = curve.map(light)
            #expect(mapped > previous, "rising at \(light)")
            #expect(mapped < 1 || step == steps, "no flat white before the peak (\(light))")
            let slope = (mapped - previous) / ((top - curve.kneeLight) / Double(steps))
            #expect(slope <= previousSlope * 1.02 + 1e-9, "the roll-off never steepens (at \(light))")
            previous = mapped
            previousSlope = slope
        }
        #expect(abs(curve.map(top) - 1) < 1e-9, "the peak lands on SDR white")
        #expect(curve.map(top * 4) == 1, "beyond the stated peak is white")
        let white = TransferFunction.lightToSDR(curve.map(1))
        #expect(white > 0.9 && white < 0.94, "reference white at 90-94 % SDR signal (\(white))")
    }

    @Test func aSourceNoBrighterThanReferenceWhiteIsOnlyClamped() {
        let curve = ToneCurve(peak: 150)
        #expect(curve.peak == curve.referenceWhite)
        #expect(curve.map(0.5) == 0.5)
        #expect(curve.map(1.5) == 1)
        #expect(curve.map(-1) == 0)
    }
}
