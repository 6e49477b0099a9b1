internal import Foundation

/// One HDR sample to BT.709 SDR, the way Reel turns phone HDR into its 8-bit renditions:
/// 1. Y'CbCr to R'G'B' with the source's matrix; the transfer to display light (PQ's EOTF; HLG's inverse OETF and
///    BT.2100's OOTF for a 1000 cd/m² display), relative to HDR reference white (203 cd/m², BT.2408).
/// 2. The source primaries to BT.709 in linear light. Colours outside BT.709 are desaturated toward the grey of
///    the same luminance until they fit: luminance and hue (the line through the D65 white point) are kept.
/// 3. The BT.2390 EETF (`ToneCurve`) on the largest component, all three scaled by the same factor, so the RGB
///    ratios (hue and saturation) are kept while the highlights roll off; reference white stays SDR white.
/// 4. BT.1886's inverse EOTF and BT.709's matrix, 8-bit limited range.
package struct HDRToSDRConversion: Sendable {
    package let source: HDRSource
    package let curve: ToneCurve
    private let toBT709: Matrix3
    private let output = LumaCoefficients.bt709
    /// The transfer functions sampled finely (`SampledCurve`), for `ToneMapTable`'s million samples: a quarter of
    /// the CPU of calling pow() and exp() for each, within a hundredth of a code of them (tested).
    private let signalToLight: SampledCurve
    private let lightToSignal: SampledCurve
    private let hlgGain: SampledCurve
    /// `toBT709`'s rows, for the sampled path's vector arithmetic (no array per sample).
    private let rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    package init(source: HDRSource) {
        self.source = source
        curve = ToneCurve(referenceWhite: HDRSource.referenceWhite, peak: source.peak)
        toBT709 = source.primaries.conversion(to: .bt709)
        let m = toBT709.rows
        rows = (SIMD3(m[0][0], m[0][1], m[0][2]), SIMD3(m[1][0], m[1][1], m[1][2]), SIMD3(m[2][0], m[2][1], m[2][2]))
        let white = HDRSource.referenceWhite
        signalToLight =
            source.transfer == .pq
            ? SampledCurve(over: 0...1) { TransferFunction.pqToNits($0) / white }
            : SampledCurve(over: 0...1, TransferFunction.hlgToScene)
        lightToSignal = SampledCurve(squareRootOf: TransferFunction.lightToSDR)
        hlgGain = SampledCurve(squareRootOf: { HDRSource.nominalPeak * pow($0, HDRSource.hlgSystemGamma - 1) / white })
    }

    /// As `convert`, with the transfer functions read from their sampled curves and vectors instead of arrays: what
    /// the table's million samples are built from.
    package func convertSampled(y: Double, cb: Double, cr: Double) -> (y: Double, cb: Double, cr: Double) {
        let signal = self.signal(y: y, cb: cb, cr: cr)
        var light = SIMD3(signalToLight[signal.r], signalToLight[signal.g], signalToLight[signal.b])
        if source.transfer == .hlg {
            let weights = SIMD3(LumaCoefficients.bt2020.kr, LumaCoefficients.bt2020.kg, LumaCoefficients.bt2020.kb)
            light *= hlgGain[(light * weights).sum()]
        }
        var rgb = SIMD3((rows.0 * light).sum(), (rows.1 * light).sum(), (rows.2 * light).sum())
        let lowest = rgb.min()
        if lowest < 0 {
            let luminance = (rgb * SIMD3(output.kr, output.kg, output.kb)).sum()
            if luminance > 0 {
                let t = luminance / (luminance - lowest)
                rgb = pointwiseMax(luminance + t * (rgb - luminance), .zero)
            } else {
                rgb = .zero
            }
        }
        let largest = rgb.max()
        if largest > 0 { rgb *= curve.map(largest) / largest } else { rgb = .zero }
        return codes(r: lightToSignal[rgb.x], g: lightToSignal[rgb.y], b: lightToSignal[rgb.z])
    }

    /// A 10-bit input sample (codes 0...1023) to 8-bit output codes, unrounded (Y' 16...235, Cb and Cr 16...240).
    package func convert(y: Double, cb: Double, cr: Double) -> (y: Double, cb: Double, cr: Double) {
        let light = toBT709.apply(displayLight(signal(y: y, cb: cb, cr: cr)))
        let rgb = curve(intoGamut(light))
        return codes(
            r: TransferFunction.lightToSDR(rgb[0]), g: TransferFunction.lightToSDR(rgb[1]),
            b: TransferFunction.lightToSDR(rgb[2]))
    }

    /// R'G'B' of a 10-bit input sample, through the source's range and matrix.
    private func signal(y: Double, cb: Double, cr: Double) -> (r: Double, g: Double, b: Double) {
        let (ny, ncb, ncr) =
            source.isFullRange
            ? (y / 1023, (cb - 512) / 1023, (cr - 512) / 1023)
            : ((y - 64) / 876, (cb - 512) / 896, (cr - 512) / 896)
        return source.matrix.rgb(y: ny, cb: ncb, cr: ncr)
    }

    /// 8-bit limited-range BT.709 codes of an SDR R'G'B'.
    private func codes(r: Double, g: Double, b: Double) -> (y: Double, cb: Double, cr: Double) {
        let (oy, ocb, ocr) = output.ycbcr(r: r, g: g, b: b)
        return (16 + 219 * oy, 128 + 224 * ocb, 128 + 224 * ocr)
    }

    /// Display light per channel, relative to reference white.
    func displayLight(_ signal: (r: Double, g: Double, b: Double)) -> [Double] {
        let white = HDRSource.referenceWhite
        switch source.transfer {
        case .pq:
            return [signal.r, signal.g, signal.b].map { TransferFunction.pqToNits($0) / white }
        case .hlg:
            let scene = [signal.r, signal.g, signal.b].map(TransferFunction.hlgToScene)
            // BT.2100's OOTF works on the scene luminance, with BT.2100's (BT.2020's) weights.
            let ys = LumaCoefficients.bt2020.luminance(scene)
            let gain = ys > 0 ? HDRSource.nominalPeak * pow(ys, HDRSource.hlgSystemGamma - 1) / white : 0
            return scene.map { $0 * gain }
        }
    }

    /// Desaturates a colour with a negative component toward the grey of its luminance, just enough to fit BT.709.
    func intoGamut(_ rgb: [Double]) -> [Double] {
        let lowest = rgb.min()!
        guard lowest < 0 else { return rgb }
        let luminance = output.luminance(rgb)
        guard luminance > 0 else { return [0, 0, 0] }
        let t = luminance / (luminance - lowest)
        return rgb.map { max(luminance + t * ($0 - luminance), 0) }
    }

    /// The tone curve on the largest component, applied to all three as one factor.
    func curve(_ rgb: [Double]) -> [Double] {
        let largest = rgb.max()!
        guard largest > 0 else { return [0, 0, 0] }
        let factor = curve.map(largest) / largest
        return rgb.map { $0 * factor }
    }
}
