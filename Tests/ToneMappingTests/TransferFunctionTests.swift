import Foundation
import Testing
import ToneMapping

/// BT.2100's and BT.1886's transfer functions against the figures the standards and BT.2408 give.
@Suite(.timeLimit(.minutes(1))) struct TransferFunctionTests {
    @Test func pqHitsTheStandardsFigures() {
        #expect(abs(TransferFunction.nitsToPQ(100) - 0.5081) < 0.0005)
        #expect(abs(TransferFunction.nitsToPQ(203) - 0.5806) < 0.0005)  // BT.2408 reference white: 58 % PQ
        #expect(abs(TransferFunction.nitsToPQ(1000) - 0.7518) < 0.0005)
        #expect(TransferFunction.nitsToPQ(10000) == 1)
        #expect(TransferFunction.pqToNits(0) == 0)
    }

    @Test func pqRoundTripsOverItsWholeRange() {
        for step in 0...1000 {
            let signal = Double(step) / 1000
            #expect(abs(TransferFunction.nitsToPQ(TransferFunction.pqToNits(signal)) - signal) < 1e-6)
        }
    }

    @Test func hlgReferenceWhiteIs75PercentAnd203Nits() {
        // BT.2408: HLG's 75 % signal shows at 203 cd/m² on the 1000 cd/m² display, through the OOTF's gamma 1.2.
        let scene = TransferFunction.hlgToScene(0.75)
        #expect(abs(1000 * pow(scene, 1.2) - 203) < 1)
        for step in 0...1000 {
            let signal = Double(step) / 1000
            #expect(abs(TransferFunction.sceneToHLG(TransferFunction.hlgToScene(signal)) - signal) < 1e-9)
        }
        #expect(abs(TransferFunction.hlgToScene(0.5) - 1.0 / 12) < 1e-12, "the two pieces meet at 1/12")
    }

    @Test func bt1886RoundTripsAndClamps() {
        for step in 0...100 {
            let light = Double(step) / 100
            #expect(abs(TransferFunction.sdrToLight(TransferFunction.lightToSDR(light)) - light) < 1e-12)
        }
        #expect(TransferFunction.lightToSDR(2) == 1)
        #expect(TransferFunction.lightToSDR(-1) == 0)
    }
}
