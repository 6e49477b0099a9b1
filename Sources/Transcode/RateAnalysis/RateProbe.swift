internal import Foundation
internal import LibAV
internal import Synchronization
internal import ThreadPool

/// Encodes a few short windows of the source, per rung and CRF, with the ladder's own encoder settings, and reads
/// every encode back as it comes out: each probe's SSIM-Y and bitrate. The windows are reached by seeking, so only
/// they (and the source pictures from the key frame before each) are decoded; pictures are made upright, put on the
/// ladder's frame-rate clock and scaled once per rung, as the ladder does.
final class RateProbe {
    /// One probe: a rung of the plan in one codec at one CRF.
    struct Encode: Sendable, Equatable {
        var rung: Int
        var codec: VideoCodec
        var crf: Double
    }

    private let input: InputContext
    private let videoIndex: Int
    private let plan: LadderPlan
    private let preset: LadderPreset
    private let color: ColorDescription
    private let threads: Int
    private let makeDecoder: () throws -> Decoder
    /// HDR to SDR before the pictures are turned upright, as the ladder does; nil for SDR.
    private let converter: HDRConverter?
    let windowStarts: [Double]
    let windowSeconds: Double

    /// - Parameters:
    ///   - input: an input of the probe's own (it seeks), with only the video stream left undiscarded.
    ///   - makeDecoder: a fresh video decoder, one per window (a decoder fed before a seek holds older pictures).
    init(
        input: InputContext, videoIndex: Int, plan: LadderPlan, preset: LadderPreset, color: ColorDescription,
        threads: Int, converter: HDRConverter? = nil,
        windowStarts: [Double], windowSeconds: Double, makeDecoder: @escaping () throws -> Decoder
    ) {
        self.converter = converter
        self.input = input
        self.videoIndex = videoIndex
        self.plan = plan
        self.preset = preset
        self.color = color
        self.threads = threads
        self.windowStarts = windowStarts
        self.windowSeconds = windowSeconds
        self.makeDecoder = makeDecoder
    }

    /// Runs every probe in `encodes` over the windows (all, or those of `windows`, each its first `seconds` when
    /// given) at once (one decode, one scale per rung) and returns their points in the same order.
    func measure(
        _ encodes: [Encode], windows: Range<Int>? = nil, seconds length: Double? = nil
    ) throws -> [RateProbePoint] {
        let rungs = Array(Set(encodes.map(\.rung))).sorted()
        let scalers = Dictionary(
            uniqueKeysWithValues: rungs.map {
                ($0, RungScaler(width: plan.rungs[$0].width, height: plan.rungs[$0].height))
            })
        let probes = try encodes.map { encode in
            var rung = plan.rungs[encode.rung]
            rung.setCRF(encode.crf, for: encode.codec)
            return try ProbeEncoder(
                RungOutput.videoSettings(
                    encode.codec, rung: rung, plan: plan, preset: preset, color: color,
                    threads: threads))
        }
        let fps = plan.frameRateValue
        let framesPerWindow = max(1, Int((min(length ?? windowSeconds, windowSeconds) * fps).rounded()))
        var slot: Int64 = 0
        var picturesDecoded: Int64 = 0
        for start in windowStarts[windows ?? windowStarts.indices] {
            var emitted = 0
            try forEachPicture(from: start) { frame, seconds in
                // The ladder's clock: the picture nearest each slot; a gap repeats the picture before it.
                let wanted = Int(((seconds - start) * fps).rounded())
                guard wanted >= emitted else { return true }
                let sdr = try converter?.convert(frame) ?? frame
                let picture = SourcePicture(frame: try sdr.upright(rotation: plan.rotation), number: picturesDecoded)
                picturesDecoded += 1
                while emitted <= min(wanted, framesPerWindow - 1) {
                    // Each window starts on the ladder's GOP grid with an IDR and has IDRs where the ladder has them:
                    // whole GOPs are coded as in the ladder (closed GOPs stand alone). Shorter windows measured HEVC
                    // and AV1 up to 0.006 SSIM-Y off what the clip then got, each codec differently.
                    try Self.encode(
                        picture, slot: slot, keyframe: emitted == 0 || emitted % plan.keyframeInterval == 0,
                        scalers: scalers, encodes: encodes, probes: probes)
                    emitted += 1
                    slot += 1
                }
                return emitted < framesPerWindow
            }
        }
        return try zip(encodes, probes).map { encode, probe in
            let cpu = try probe.finish()
            return RateProbePoint(
                crf: encode.crf, ssimY: probe.meter.ssim.mean,
                kilobitsPerSecond: probe.frames == 0
                    ? 0 : Double(probe.bytes * 8) / (Double(probe.frames) / fps) / 1000,
                encodeCPUSeconds: cpu)
        }
    }

    /// Decodes from the key frame before `start` and hands each picture at or after it to `body` with its time in
    /// seconds from the stream's start, until `body` returns false or the stream ends.
    private func forEachPicture(from start: Double, _ body: (Frame, Double) throws -> Bool) throws {
        try input.seek(toSeconds: start, streamIndex: videoIndex)
        let decoder = try makeDecoder()
        let packet = try Packet()
        let frame = try Frame()
        let timeBase = try input.timeBase(ofStream: videoIndex).doubleValue
        let origin = input.streams[videoIndex].startTimeSeconds ?? 0
        let halfFrame = 0.5 / max(plan.frameRateValue, 1)
        func drain() throws -> Bool {
            while try decoder.receive(into: frame) == .output {
                defer { frame.unref() }
                let seconds = Double(frame.bestEffortTimestamp) * timeBase - origin
                if seconds + halfFrame < start { continue }
                if try !body(frame, seconds) { return false }
            }
            return true
        }
        while try input.read(into: packet) == .output {
            defer { packet.unref() }
            guard packet.streamIndex == videoIndex else { continue }
            _ = try decoder.send(packet)
            if try !drain() { return }
        }
        _ = try decoder.send(nil)
        _ = try drain()
    }

    /// Scales the picture once per rung, then encodes it in every probe at once, each on its own thread.
    private static func encode(
        _ picture: SourcePicture, slot: Int64, keyframe: Bool, scalers: [Int: RungScaler],
        encodes: [Encode], probes: [ProbeEncoder]
    ) throws {
        let failure = Mutex<(any Error)?>(nil)
        let rungs = Array(scalers.keys)
        let scaledByRung = Mutex<[Int: Frame]>([:])
        ParallelLoop.perform(iterations: rungs.count) { index in
            do {
                let frame = try scalers[rungs[index]]!.picture(from: picture)
                scaledByRung.withLock { $0[rungs[index]] = frame }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        // Every rung is scaled: the encodes below only read the pictures, so they need no lock.
        let scaled = scaledByRung.withLock { $0 }
        ParallelLoop.perform(iterations: probes.count) { index in
            do {
                try probes[index].encode(scaled[encodes[index].rung]!, slot: slot, keyframe: keyframe)
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
