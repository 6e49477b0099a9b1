internal import FileSystem
internal import Foundation
internal import Ingest
internal import LibAV
internal import LibTurboJPEG
internal import LibWebP
internal import Loudness
package import MediaModel
internal import Synchronization
internal import ThreadPool

/// One transcode in progress: the demuxer, the two decoders, the constant-frame-rate clock and the rungs.
/// `@unchecked Sendable`: one thread runs the session; `emit` hands each rung's objects to one task and waits for all.
final class LadderSession: @unchecked Sendable {
    let input: InputContext
    let videoIndex: Int
    let audioIndex: Int?
    let plan: LadderPlan
    let videoDecoder: Decoder
    let audioDecoder: Decoder?
    /// Per plan rung: its scaler and its AAC encoder.
    let scalers: [RungScaler]
    let audio: [RungAudio]
    /// Every rendition: each codec's rungs, codecs in the plan's order (H.264 first); only some of them when the
    /// session encodes a few renditions again (`only`).
    let outputs: [RungOutput]
    /// Each output's rung: its index in `plan.rungs` and `scalers`.
    private let outputRungs: [Int]
    /// Whether the poster rung's pictures are looked at for the poster: not when encoding some renditions again.
    private let picksPoster: Bool
    /// One rendition per rung, each rung's: its scaling task also encodes it, one hand-off per picture, not two.
    private let encodesWhereScaled: Bool
    /// By rung index: an encoder at the rung's own CRF fed only the `sample` slots, the reference a content-aware
    /// H.264 rendition is held against (`RateChecker`).
    private let references: [Int: ProbeEncoder]
    private let sample: [Range<Int64>]
    private var sampledSlots: Int64 = 0
    /// By rung id, what each reference encoder measured over the sample, and the CPU they used together.
    private(set) var referenceSSIMY: [String: Double] = [:]
    private(set) var referenceCPUSeconds = 0.0
    /// The first probes made inside this encode, until they decide (then nil), and the output they read.
    private var trial: FirstProbeTrial?
    private let trialOutput: Int?
    private let trialStarted = Date()
    /// What the first probes measured and decided, once they have.
    private(set) var firstProbes: RateAnalysis.FirstProbes?
    /// Wall seconds from the start of the session to the first probes' decision.
    private(set) var firstProbesElapsedSeconds = 0.0

    /// How `run` ended: the whole clip encoded, or stopped early because the first probes found headroom (the
    /// ladder is to be started again at the CRFs the analysis chooses).
    enum Outcome {
        case finished
        case headroom
    }
    /// Frames by which every rendition's decode times precede its pictures (`RungOutput.decodeLead`).
    let decodeLead: Int64
    let poster: PosterPicker
    let posterRung: Int
    /// Thumbnails for the storyboard, from the poster rung's pictures; nil when the output needs none (compress).
    let storyboard: StoryboardCollector?
    let preset: LadderPreset
    private let videoTimeBase: Rational
    private let fps: Rational
    private var resampler: Resampler?
    private let fifo: AudioFIFO?
    private var audioSamples: Int64 = 0
    /// Brings the resampled audio to one loudness before the AAC encoders (`LoudnessNormalizer`); set before `run`.
    var loudness: LoudnessNormalizer?
    /// What `loudness` was made from (`normalizeLoudness`), for a later session that encodes some renditions again.
    var loudnessPlan: LoudnessPlan?
    // Constant-frame-rate clock: output slot n is shown at n / fps; each decoded picture covers the slots from
    // its own until the next picture's (duplicating for gaps, dropping when two land on one slot).
    private var firstTimestamp: Int64?
    private var lastTimestamp: Int64 = 0
    private var nextSlot: Int64 = 0
    /// The decoded picture waiting for its slots (a reference; converted and turned upright only once emitted, so a
    /// 60 fps source's dropped pictures cost neither), and the last one prepared.
    private var pending: (decoded: Frame, number: Int64, slot: Int64)?
    private var prepared: SourcePicture?
    private var picturesDecoded: Int64 = 0
    /// Turns HDR pictures into BT.709 SDR before anything else sees them; nil for SDR sources.
    private let converter: HDRConverter?
    /// Scales HDR pictures to the one rung's size (still the wrong way up) before `converter` maps them: the
    /// provisional rung's choice (`provisional`), nil for a ladder.
    private let prescaler: RungScaler?
    /// Set when this session makes the 10-bit HDR rendition instead: pictures stay as they are, in 10 bits.
    private let hdr: HDRRendition?

    /// `destination` gives each rung of `plan` in each of its codecs its output. A `storyboardDuration` (the
    /// container's claim, 0 when unknown) collects storyboard thumbnails as the rungs encode.
    /// - Parameters:
    ///   - only: the rendition ids to encode (nil: all). Encoding some again, a session takes the first one's
    ///     `decodeLead`, so that their IDRs keep the presentation times of the renditions it leaves alone.
    ///   - measure: read every picture back (`RenditionMeter`), pooling each of `pools` apart as well.
    ///   - references: H.264 CRFs by rung id, at which the `sample` slots of those rungs are encoded as well, and
    ///     measured (`referenceSSIMY`).
    ///   - trial: the first probes, made inside this encode (`firstProbes`); only in a ladder of H.264 alone.
    ///   - provisional: the provisional rung's cheaper pictures (docs/hls.md): scaled by area averaging, not
    ///     Lanczos, and, for one rung from an HDR source, scaled before they are converted (at 360x640 the
    ///     conversion costs a ninth of 1080x1920's). A ladder converts first, so every rung, its poster and
    ///     storyboard start from one SDR picture.
    init(
        input: InputContext, videoIndex: Int, audioIndex: Int?, plan: LadderPlan, preset: LadderPreset,
        destination: (LadderPlan.Rung, VideoCodec) -> RungOutput.Destination, limits: AdmissionLimits.Video,
        threads: Int,
        storyboardDuration: Double? = nil, measure: Bool = false, pools: [[Range<Int64>]] = [],
        only: Set<String>? = nil, decodeLead: Int64? = nil,
        references: [String: Double] = [:], sample: [Range<Int64>] = [], trial: FirstProbeTrial? = nil,
        converter: HDRConverter? = nil, hdr: HDRRendition? = nil, provisional: Bool = false
    ) throws {
        precondition(converter == nil || hdr == nil, "a session makes SDR renditions or the HDR one, not both")
        self.converter = converter
        prescaler =
            provisional && converter != nil && plan.rungs.count == 1
            ? plan.rungs.first.map { rung in
                let coded = Self.codedSize(width: rung.width, height: rung.height, rotation: plan.rotation)
                return RungScaler(width: coded.width, height: coded.height, format: .yuv420p10, filter: .area)
            } : nil
        self.hdr = hdr
        self.input = input
        self.videoIndex = videoIndex
        self.audioIndex = audioIndex
        self.plan = plan
        self.preset = preset
        videoTimeBase = try input.timeBase(ofStream: videoIndex)
        fps = Rational(Int32(plan.frameRate.numerator), Int32(plan.frameRate.denominator))
        videoDecoder = try input.makeDecoder(
            streamIndex: videoIndex, threads: 2, maxPixels: limits.maxPixels, codecWhitelist: limits.codecs)
        audioDecoder = try audioIndex.map { (index) throws(AVError) in
            try input.makeDecoder(
                streamIndex: index, threads: 1, maxPixels: limits.maxPixels, codecWhitelist: AdmissionPolicy.audioCodecs
            )
        }
        let color = try hdr?.color ?? Self.outputColor(input, videoIndex, plan, converting: converter != nil)
        scalers = plan.rungs.map {
            RungScaler(
                width: $0.width, height: $0.height, format: hdr == nil ? .yuv420p : .yuv420p10,
                filter: provisional ? .area : .lanczos)
        }
        audio =
            audioIndex == nil
            ? []
            : try plan.rungs.map { rung throws(AVError) in
                try RungAudio(bitrateKbps: rung.audioBitrateKbps, preset: preset)
            }
        var outputs: [RungOutput] = []
        var outputRungs: [Int] = []
        var trialOutput: Int?
        for codec in plan.codecs {
            for (index, rung) in plan.rungs.enumerated() where only?.contains(codec.renditionID(rung: rung.id)) ?? true
            {
                let destination = destination(rung, codec)
                switch destination {
                case let .hls(folder), let .hlsEvent(folder): try Directory.create(folder)
                case .mp4: break
                }
                // The probed rung's H.264 rendition is read back for the first probes, their pool last.
                let probed = codec == .h264 && trial?.rung == index ? trial : nil
                if probed != nil { trialOutput = outputs.count }
                outputs.append(
                    try RungOutput(
                        rung: rung, codec: codec, plan: plan, preset: preset, destination: destination,
                        color: color, audio: audio.isEmpty ? nil : audio[index].encoder, threads: threads,
                        measure: measure, pools: pools + (probed.map { [$0.pool] } ?? []),
                        measureFirst: probed?.frames, hdr: hdr))
                outputRungs.append(index)
            }
        }
        self.outputs = outputs
        self.outputRungs = outputRungs
        self.trial = trialOutput == nil ? nil : trial
        self.trialOutput = trialOutput
        picksPoster = only == nil && hdr == nil
        encodesWhereScaled = plan.codecs.count == 1 && outputRungs == Array(plan.rungs.indices)
        var encoders: [Int: ProbeEncoder] = [:]
        for (index, rung) in plan.rungs.enumerated() {
            guard let crf = references[rung.id] else { continue }
            var reference = rung
            reference.setCRF(crf, for: .h264)
            encoders[index] = try ProbeEncoder(
                RungOutput.videoSettings(
                    .h264, rung: reference, plan: plan, preset: preset, color: color, threads: threads))
        }
        self.references = encoders
        self.sample = sample
        let lead = decodeLead ?? Int64(outputs.map(\.video.reorderDelay).max() ?? 0)
        self.decodeLead = lead
        for output in outputs { output.decodeLead = lead }
        for (index, rungAudio) in audio.enumerated() {
            rungAudio.deliver(to: outputs.filter { $0.rung.id == plan.rungs[index].id })
        }
        fifo =
            audio.isEmpty
            ? nil
            : try AudioFIFO(
                formatRaw: audio[0].encoder.sampleFormatRaw, channels: preset.audio.channels,
                sampleRate: preset.audio.sampleRate)
        posterRung =
            plan.rungs.lastIndex { $0.id == preset.poster.rung }
            ?? plan.rungs.lastIndex { min($0.width, $0.height) <= 720 } ?? 0
        poster = PosterPicker(searchSeconds: preset.poster.searchSeconds, frameRate: plan.frameRateValue)
        let frameRate = fps
        storyboard = storyboardDuration.map { StoryboardCollector(expectedDuration: $0, frameRate: frameRate) }
    }

    /// The colour every rendition is tagged with (and the first probes' encoder, `FirstProbeTrial`): BT.709 when
    /// HDR is converted, else the source's tags where it states them.
    static func outputColor(
        _ input: InputContext, _ videoIndex: Int, _ plan: LadderPlan, converting: Bool
    ) throws(AVError) -> ColorDescription {
        if converting { return .bt709 }
        return try input.colorDescription(ofStream: videoIndex).forOutput(
            shortSide: plan.rungs.map { min($0.width, $0.height) }.max() ?? 0)
    }

    /// The length of the output video: the constant-frame-rate slots emitted so far.
    var outputSeconds: Double { Double(nextSlot) / fps.doubleValue }

    /// Demuxes and decodes everything once, feeding every rung; then flushes all encoders and muxers. Stops early,
    /// with nothing finished, when first probes (`trial`) find headroom. No progress is reported before they decide.
    func run(duration: Double, isCancelled: () -> Bool, progress: (Double) -> Void) throws -> Outcome {
        let packet = try Packet()
        let frame = try Frame()
        var lastReport = -1.0
        while try input.read(into: packet) == .output {
            defer { packet.unref() }
            if isCancelled() { throw TranscodeError(.cancelled, path: "") }
            if packet.streamIndex == videoIndex {
                _ = try videoDecoder.send(packet)
                try drainVideo(frame)
                if trial != nil, try settleTrial(atEnd: false) == .headroom { return .headroom }
            } else if packet.streamIndex == audioIndex, let audioDecoder {
                _ = try audioDecoder.send(packet)
                try drainAudio(audioDecoder, frame)
            }
            let seconds = Double(nextSlot) / fps.doubleValue
            if trial == nil, seconds - lastReport >= 0.5 {
                progress(seconds)
                lastReport = seconds
            }
        }
        _ = try videoDecoder.send(nil)
        try drainVideo(frame)
        if let audioDecoder {
            _ = try audioDecoder.send(nil)
            try drainAudio(audioDecoder, frame)
        }
        try flushVideo()
        try flushAudio()
        for output in outputs { try output.finishVideo() }
        if trial != nil, try settleTrial(atEnd: true) == .headroom { return .headroom }
        for (index, reference) in references {
            referenceCPUSeconds += try reference.finish()
            referenceSSIMY[plan.rungs[index].id] = reference.meter.ssim.mean
        }
        for rungAudio in audio { try rungAudio.encode(nil) }
        for output in outputs { try output.writeTrailer() }
        progress(Double(nextSlot) / fps.doubleValue)
        return .finished
    }

    /// Decides on the first probes once both have their pictures (or the clip has ended): records them in
    /// `firstProbes` and drops the probe encoder. `.headroom` when the ladder is to start again.
    private func settleTrial(atEnd: Bool) throws -> Outcome? {
        guard let trial, let trialOutput, let meter = outputs[trialOutput].meter else { return nil }
        let points: [RateProbePoint]
        if atEnd {
            points = try trial.finish(ladder: meter)
        } else {
            guard let read = trial.points(ladder: meter) else { return nil }
            points = read
        }
        let stopped = trial.verdict(points)
        firstProbes = RateAnalysis.FirstProbes(
            rung: plan.rungs[trial.rung].id, windowStart: 0, seconds: Double(trial.frames) / fps.doubleValue,
            probes: points, stopped: stopped,
            cpuSeconds: trial.cpuSeconds(ladder: meter, ownsLadderMeter: meter.limit != nil),
            discardedSeconds: stopped == nil ? outputSeconds : nil)
        firstProbesElapsedSeconds = Date().timeIntervalSince(trialStarted)
        self.trial = nil
        return stopped == nil ? .headroom : .finished
    }

    private func drainVideo(_ frame: Frame) throws {
        while try videoDecoder.receive(into: frame) == .output {
            var timestamp = frame.bestEffortTimestamp
            let decoded = try frame.makeReference()
            let number = picturesDecoded
            picturesDecoded += 1
            frame.unref()
            if timestamp == noTimestamp { timestamp = lastTimestamp + 1 }
            let first = firstTimestamp ?? timestamp
            firstTimestamp = first
            lastTimestamp = timestamp
            let slot = slotOf(timestamp - first)
            if let pending {
                while nextSlot < slot {
                    try emit(try picture(pending.decoded, number: pending.number), slot: nextSlot)
                    nextSlot += 1
                }
            }
            pending = (decoded, number, max(slot, nextSlot))
        }
    }

    /// The size a picture has before it is turned upright by `rotation` (clockwise degrees) to `width`x`height`.
    static func codedSize(width: Int, height: Int, rotation: Int) -> (width: Int, height: Int) {
        abs(rotation) % 180 == 90 ? (height, width) : (width, height)
    }

    /// A decoded picture converted (HDR to SDR) and turned upright, once however many slots it covers.
    private func picture(_ decoded: Frame, number: Int64) throws -> SourcePicture {
        if let prepared, prepared.number == number { return prepared }
        let small = try prescaler?.picture(from: SourcePicture(frame: decoded, number: number)) ?? decoded
        let frame = try converter?.convert(small) ?? decoded
        let picture = SourcePicture(
            frame: try frame.upright(rotation: plan.rotation, depth10: hdr != nil), number: number)
        prepared = picture
        return picture
    }

    /// The output slot nearest to a source time offset, in exact integer arithmetic; a tie goes to the later slot,
    /// as in ffmpeg's fps filter, so 60 → 30 keeps frames 0, 2, 4, ... (the later picture of a slot wins).
    private func slotOf(_ offset: Int64) -> Int64 {
        let numerator = offset * Int64(videoTimeBase.numerator) * Int64(fps.numerator)
        let denominator = Int64(videoTimeBase.denominator) * Int64(fps.denominator)
        guard denominator > 0 else { return 0 }
        return numerator >= 0 ? (2 * numerator + denominator) / (2 * denominator) : 0
    }

    /// The last picture covers the slots up to the end of the clip (its last frame's time plus one source frame);
    /// a last picture that rounds past the end is dropped, as a 61st frame in a 2 s clip at 30 fps would be.
    private func flushVideo() throws {
        guard let pending, let first = firstTimestamp else { return }
        let sourceFrame = Int64(
            (1 / max(input.streams[videoIndex].averageFrameRate.doubleValue, 1)) / videoTimeBase.doubleValue)
        let end = max(nextSlot == 0 ? 1 : 0, slotOf(lastTimestamp - first + max(sourceFrame, 1)))
        while nextSlot < end {
            try emit(try picture(pending.decoded, number: pending.number), slot: nextSlot)
            nextSlot += 1
        }
        self.pending = nil
    }

    /// Hands one picture to every rung at once: each rung scales it on its own thread (once, for all its codecs);
    /// then every rendition encodes its rung's picture on its own thread.
    private func emit(_ picture: SourcePicture, slot: Int64) throws {
        let failure = Mutex<(any Error)?>(nil)
        let scalers = self.scalers, outputs = self.outputs, poster = self.poster, posterRung = self.posterRung
        let keyint = plan.keyframeInterval, storyboard = self.storyboard, outputRungs = self.outputRungs
        let picksPoster = self.picksPoster, references = self.references, trial = self.trial
        let oneCodec = encodesWhereScaled
        // The reference encoders take the sampled slots one after another, an IDR where the ladder has one.
        let sampled: Int64? = sample.contains { $0.contains(slot) } ? sampledSlots : nil
        if sampled != nil { sampledSlots += 1 }
        ParallelLoop.perform(iterations: scalers.count) { index in
            do {
                guard (picksPoster && index == posterRung) || outputRungs.contains(index) else { return }
                let scaled = try scalers[index].picture(from: picture)
                if oneCodec { try outputs[index].encodeVideo(scaled, slot: slot, keyframeInterval: keyint) }
                if let trial, index == trial.rung {
                    try trial.encode(scaled, slot: slot, keyframe: slot % Int64(keyint) == 0)
                }
                if let sampled, let reference = references[index] {
                    try reference.encode(scaled, slot: sampled, keyframe: slot % Int64(keyint) == 0)
                }
                // The poster and the storyboard reuse the picture this rung just scaled.
                if picksPoster, index == posterRung, !poster.isSettled {
                    try poster.consider(scaled, slot: slot)
                }
                if index == posterRung, let storyboard {
                    try storyboard.consider(scaled, slot: slot)
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        guard !oneCodec else { return }
        ParallelLoop.perform(iterations: outputs.count) { index in
            do {
                guard let scaled = scalers[outputRungs[index]].lastScaled?.frame else { return }
                try outputs[index].encodeVideo(scaled, slot: slot, keyframeInterval: keyint)
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    private func drainAudio(_ decoder: Decoder, _ frame: Frame) throws {
        guard let fifo else { return }
        while try decoder.receive(into: frame) == .output {
            if resampler == nil {
                resampler = try Resampler(
                    from: frame, outputRate: preset.audio.sampleRate, outputChannels: preset.audio.channels,
                    outputFormatRaw: fifo.formatRaw)
            }
            try fifo.write(try normalized(resampler!.convert(frame)))
            frame.unref()
            try encodeAudio(minimum: 1024)
        }
    }

    private func flushAudio() throws {
        guard let fifo else { return }
        if let resampler { try fifo.write(try normalized(resampler.convert(nil))) }
        try fifo.write(try normalizedRest())
        try encodeAudio(minimum: 1024)
        try encodeAudio(minimum: 1)
    }

    /// Sends whole 1024-sample AAC frames to every rung (the last one may be shorter).
    private func encodeAudio(minimum: Int) throws {
        guard let fifo else { return }
        while fifo.count >= minimum, fifo.count > 0 {
            let chunk = try fifo.read(1024)
            chunk.pts = audioSamples
            audioSamples += Int64(chunk.sampleCount)
            for rungAudio in audio { try rungAudio.encode(chunk) }
        }
    }

    func renditions() throws -> [TranscodeSummary.Rendition] {
        try outputs.map { output in
            let measured = try MasterPlaylistWriter.measure(playlist: output.directory + "/index.m3u8")
            return TranscodeSummary.Rendition(
                id: output.id, width: output.rung.width, height: output.rung.height,
                playlist: output.id + "/index.m3u8",
                bytes: measured.bytes, bandwidth: measured.peak, averageBandwidth: measured.average,
                codecs: try MasterPlaylistWriter.codecs(initSegment: output.directory + "/init.mp4"),
                segments: measured.segments, frames: output.framesEncoded, rung: output.rung.id,
                videoCodec: output.codec,
                crf: output.rung.crf(output.codec), ssimY: output.ssimY,
                targetSSIMY: output.rung.targetSSIMY[output.codec], encodeCPUSeconds: output.encodeCPUSeconds,
                prefetch: measured.prefetch, videoRange: output.videoRange
            )
        }
    }

    /// Writes the chosen poster as JPEG and WebP at the poster rung's size; returns its time in seconds.
    func writePosters(jpeg: String, webp: String) throws -> Double {
        guard let chosen = poster.chosen else {
            throw TranscodeError(.encodeFailed, "no picture was decoded for the poster", path: "")
        }
        let rgba = try chosen.frame.packedRGBA()
        let (width, height) = (chosen.frame.width, chosen.frame.height)
        let jpegBytes = try JPEGCompressor().compress(rgba, width: width, height: height, input: .rgba, quality: 85)
        try AtomicFile.write(jpegBytes, to: jpeg, durable: false)
        let picture = try WebPPicture(rgba: rgba, width: width, height: height, stride: width * 4, hasAlpha: false)
        try AtomicFile.write(
            try WebPEncoder(settings: WebPEncoderSettings(quality: 80)).encode(picture), to: webp, durable: false)
        return Double(chosen.slot) / fps.doubleValue
    }

    /// Writes the storyboard's sheet and WebVTT file into `directory`, timed on the output's length.
    /// - Throws: `TranscodeError` when the session collected no storyboard or it cannot be encoded.
    func writeStoryboard(into directory: String) throws -> Storyboard {
        guard let storyboard else {
            throw TranscodeError(.encodeFailed, "this session collected no storyboard", path: "")
        }
        return try storyboard.write(into: directory, durationSeconds: outputSeconds)
    }
}
