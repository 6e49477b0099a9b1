import Foundation
import Testing
import ToneMapping

/// The whole sample conversion: SDR-range content comes back where it was, neutrals stay neutral, colours outside
/// BT.709 keep their hue and luminance, and highlights roll off without clipping.
@Suite(.timeLimit(.minutes(2))) struct HDRToSDRConversionTests {
    /// The 10-bit limited-range HDR code of an SDR grey (8-bit code `sdr`), placed as BT.2408 places SDR white.
    static func hdrGrey(_ sdr: Double, _ transfer: HDRSource.Transfer) -> Double {
        let light = TransferFunction.sdrToLight((sdr - 16) / 219)
        let signal: Double
        switch transfer {
        case .pq: signal = TransferFunction.nitsToPQ(light * HDRSource.referenceWhite)
        case .hlg: signal = TransferFunction.sceneToHLG(pow(light * HDRSource.referenceWhite / 1000, 1 / 1.2))
        }
        return 64 + 876 * signal
    }

    @Test(arguments: [HDRSource.Transfer.pq, .hlg])
    func sdrRangeGreysComeBackAndStayNeutral(transfer: HDRSource.Transfer) {
        let conversion = HDRToSDRConversion(source: HDRSource(transfer: transfer))
        let knee = TransferFunction.lightToSDR(conversion.curve.kneeLight) * 219 + 16
        for code in stride(from: 16.0, through: 235, by: 1) {
            let out = conversion.convert(y: Self.hdrGrey(code, transfer), cb: 512, cr: 512)
            #expect(abs(out.cb - 128) < 1e-6 && abs(out.cr - 128) < 1e-6, "grey \(code) stays neutral")
            if code <= knee {
                #expect(abs(out.y - code) < 0.01, "grey \(code) below the knee comes back (got \(out.y))")
            } else {
                // The knee sits at 81 % SDR signal; reference white lands at about 92 %.
                #expect(
                    out.y < code + 0.01 && out.y > code - 22, "grey \(code) above the knee rolls off (got \(out.y))")
            }
        }
    }

    @Test func aBT2020GreenOutsideBT709KeepsItsLuminanceAndHue() {
        let conversion = HDRToSDRConversion(source: HDRSource(transfer: .pq))
        // A saturated BT.2020 green at 40 cd/m²: outside BT.709, well below the knee.
        let g2020: [Double] = [0.1, 1, 0.1].map { TransferFunction.nitsToPQ(40 * $0) }
        let ycc = LumaCoefficients.bt2020.ycbcr(r: g2020[0], g: g2020[1], b: g2020[2])
        let out = conversion.convert(y: 64 + 876 * ycc.y, cb: 512 + 896 * ycc.cb, cr: 512 + 896 * ycc.cr)
        let rgb = LumaCoefficients.bt709.rgb(y: (out.y - 16) / 219, cb: (out.cb - 128) / 224, cr: (out.cr - 128) / 224)
        let outLight = [rgb.r, rgb.g, rgb.b].map(TransferFunction.sdrToLight)
        #expect(outLight.allSatisfy { $0 >= -1e-6 && $0 <= 1 }, "inside BT.709: \(outLight)")
        // The same colour converted exactly, in linear BT.709 relative to reference white (negative red and blue).
        let exact = Primaries.bt2020.conversion(to: .bt709).apply([0.1, 1, 0.1].map { 40 * $0 / 203 })
        #expect(exact.min()! < 0, "the test colour is outside BT.709")
        let y709 = LumaCoefficients.bt709.luminance(exact), yOut = LumaCoefficients.bt709.luminance(outLight)
        #expect(abs(yOut - y709) / y709 < 0.02, "luminance kept: \(yOut) against \(y709)")
        // Hue: the output's offset from its grey points the same way as the exact colour's offset from its grey.
        let a = exact.map { $0 / y709 - 1 }, b = outLight.map { $0 / yOut - 1 }
        let cosine = zip(a, b).map(*).reduce(0, +) / (hypot3(a) * hypot3(b))
        #expect(cosine > 0.999, "hue kept (cosine \(cosine))")
    }

    @Test func highlightsAboveReferenceWhiteKeepTheirOrderUpToThePeak() {
        let conversion = HDRToSDRConversion(source: HDRSource(transfer: .pq, peak: 1000))
        var previous = 0.0
        for nits in stride(from: 100.0, through: 1000, by: 10) {
            let y = 64 + 876 * TransferFunction.nitsToPQ(nits)
            let out = conversion.convert(y: y, cb: 512, cr: 512).y
            #expect(out > previous, "\(nits) cd/m² is brighter than the step below")
            #expect(nits > 700 || out < 234.8, "\(nits) cd/m² is not clipped to white (got \(out))")
            previous = out
        }
        #expect(previous > 234.9, "the peak is SDR white")
        let white = conversion.convert(y: 64 + 876 * TransferFunction.nitsToPQ(203), cb: 512, cr: 512).y
        #expect(white > 212 && white < 222, "reference white at about 92 % SDR signal, the top kept for highlights")
    }

    @Test func theTableHoldsTheConversionAtItsGridPoints() {
        let conversion = HDRToSDRConversion(source: HDRSource(transfer: .hlg))
        let table = ToneMapTable(conversion)
        let n = ToneMapTable.gridPoints
        #expect(table.luma.count == 1024 * n * n && table.chroma.count == 256 * n * n)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let y = Int.random(in: 0..<1024, using: &generator)
            let cb = Int.random(in: 0..<n, using: &generator), cr = Int.random(in: 0..<n, using: &generator)
            let exact = conversion.convertSampled(y: Double(y), cb: Double(cb * 32), cr: Double(cr * 32))
            #expect(abs(Double(table.luma[(cb * n + cr) * 1024 + y]) / 256 - exact.y) <= 1.0 / 256)
            if y % 4 == 0 {
                let packed = table.chroma[(cb * n + cr) * 256 + y / 4]
                #expect(abs(Double(packed >> 16) / 256 - exact.cb) <= 1.0 / 256)
                #expect(abs(Double(packed & 0xFFFF) / 256 - exact.cr) <= 1.0 / 256)
            }
        }
    }

    /// The table is built from the transfer functions' sampled curves: they stay within a twentieth of an 8-bit code
    /// of pow() and exp() everywhere, dark and saturated samples included.
    @Test(arguments: [HDRSource.Transfer.pq, .hlg])
    func sampledCurvesMatchTheFunctions(transfer: HDRSource.Transfer) {
        let conversion = HDRToSDRConversion(source: HDRSource(transfer: transfer))
        var worst = 0.0
        for y in stride(from: 0, through: 1023, by: 7) {
            for cb in stride(from: 0, through: 1023, by: 31) {
                for cr in stride(from: 0, through: 1023, by: 31) {
                    let a = conversion.convert(y: Double(y), cb: Double(cb), cr: Double(cr))
                    let b = conversion.convertSampled(y: Double(y), cb: Double(cb), cr: Double(cr))
                    worst = max(worst, abs(a.y - b.y), abs(a.cb - b.cb), abs(a.cr - b.cr))
                }
            }
        }
        #expect(worst < 0.05, "worst difference \(worst) codes")
    }

    func hypot3(_ v: [Double]) -> Double { (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot() }
}
