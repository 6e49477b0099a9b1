/// Pure planning of a ladder from a source's facts: no libav, so every rule is tested exhaustively.
package struct LadderPlanner: Sendable {
    package struct Source: Sendable {
        /// Stored (coded) size and the clockwise display rotation.
        package var width: Int
        package var height: Int
        package var rotation: Int
        package var averageFrameRate: Double
        package var realFrameRate: Double

        package init(width: Int, height: Int, rotation: Int, averageFrameRate: Double, realFrameRate: Double) {
            self.width = width
            self.height = height
            self.rotation = rotation
            self.averageFrameRate = averageFrameRate
            self.realFrameRate = realFrameRate
        }
    }

    package let preset: LadderPreset

    package init(preset: LadderPreset = .default) { self.preset = preset }

    package func plan(_ source: Source) -> LadderPlan {
        let swaps = source.rotation == 90 || source.rotation == 270
        let displayWidth = swaps ? source.height : source.width
        let displayHeight = swaps ? source.width : source.height
        let short = min(displayWidth, displayHeight)
        let sorted = preset.rungs.sorted { $0.shortSide < $1.shortSide }
        // Never upscale: rungs up to the source's short side, plus a native rung when the source sits between rungs.
        var chosen: [(id: String, short: Int, template: LadderPreset.Rung, caps: (Int, Int))] =
            sorted
            .filter { $0.shortSide <= short }
            .map { ($0.id, $0.shortSide, $0, ($0.maxBitrateKbps, $0.bufferKbits)) }
        let top = sorted.last!
        if short < top.shortSide, chosen.last.map({ short > $0.short }) ?? true {
            let native = short - short % 2
            let caps = interpolatedCaps(shortSide: native, rungs: sorted)
            let template = sorted.last { $0.shortSide <= native } ?? sorted.first!
            chosen.append(("\(native)p", native, template, caps))
        }
        let rungs = chosen.map { rung -> LadderPlan.Rung in
            let (width, height) = scaledSize(
                displayWidth: displayWidth, displayHeight: displayHeight, shortSide: rung.short)
            // Audio follows the nearest rung at or above (a 480p native rung gets 720p's audio).
            let audio = (sorted.first { $0.shortSide >= rung.short } ?? top).audioBitrateKbps
            let others = preset.codecs.filter { $0 != .h264 }.map { ($0, Double(preset.crf($0, rung: rung.template))) }
            return LadderPlan.Rung(
                id: rung.id, width: width, height: height, crf: Double(rung.template.crf),
                maxBitrateKbps: rung.caps.0, bufferKbits: rung.caps.1, audioBitrateKbps: audio,
                otherCRFs: Dictionary(uniqueKeysWithValues: others))
        }
        let frameRate = outputFrameRate(average: source.averageFrameRate, real: source.realFrameRate)
        let fps = Double(frameRate.numerator) / Double(frameRate.denominator)
        return LadderPlan(
            rungs: rungs, frameRate: frameRate,
            keyframeInterval: max(1, Int((fps * preset.keyframeIntervalSeconds).rounded())),
            rotation: source.rotation, codecs: preset.codecs.sorted())
    }

    /// Keeps the aspect ratio with even sides; the short side is exactly `shortSide`.
    func scaledSize(displayWidth: Int, displayHeight: Int, shortSide: Int) -> (Int, Int) {
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
        if displayWidth <= displayHeight {
            return (shortSide, even(Double(displayHeight) * Double(shortSide) / Double(displayWidth)))
        }
        return (even(Double(displayWidth) * Double(shortSide) / Double(displayHeight)), shortSide)
    }

    /// A native rung's caps, interpolated by pixel count between its neighbours (below the lowest rung: its caps).
    func interpolatedCaps(shortSide: Int, rungs: [LadderPreset.Rung]) -> (Int, Int) {
        guard let low = rungs.last(where: { $0.shortSide <= shortSide }) else {
            return (rungs[0].maxBitrateKbps, rungs[0].bufferKbits)
        }
        guard let high = rungs.first(where: { $0.shortSide >= shortSide }), high.shortSide != low.shortSide else {
            return (low.maxBitrateKbps, low.bufferKbits)
        }
        let t =
            Double(shortSide * shortSide - low.shortSide * low.shortSide)
            / Double(high.shortSide * high.shortSide - low.shortSide * low.shortSide)
        let rate = Int((Double(low.maxBitrateKbps) + Double(high.maxBitrateKbps - low.maxBitrateKbps) * t).rounded())
        return (rate, rate * 2)
    }

    /// ≤ max is kept, too fast is halved when that fits (60 → 30), otherwise capped. VFR (average and base
    /// rate disagree) becomes the common rate at or just above its average: a phone's low-light 30 fps clip
    /// averaging 27 fps plays at 30, every frame kept at its own time.
    func outputFrameRate(average: Double, real: Double) -> (numerator: Int, denominator: Int) {
        let limit = preset.maxFrameRate
        let isConstant = average > 0 && real > 0 && abs(average - real) / real < 0.02
        var source = isConstant ? average : (average > 0 ? average : (real > 0 ? real : limit))
        if !isConstant, source <= limit + 0.5 {
            source = [24.0, 25, 30, limit].filter { $0 <= limit }.first { $0 >= source - 0.5 } ?? limit
        }
        let rate: Double = source <= limit + 0.5 ? source : (source / 2 <= limit + 0.5 ? source / 2 : limit)
        return Self.fraction(rate)
    }

    /// The nearest common frame-rate fraction: NTSC rates as n*1000/1001, everything else as a whole number.
    static func fraction(_ rate: Double) -> (numerator: Int, denominator: Int) {
        let ntsc = rate * 1.001
        if abs(ntsc - ntsc.rounded()) < 0.01, abs(rate - rate.rounded()) > 0.01 {
            return (Int(ntsc.rounded()) * 1000, 1001)
        }
        return (max(1, Int(rate.rounded())), 1)
    }
}
