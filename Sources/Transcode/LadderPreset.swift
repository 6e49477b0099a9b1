package import MediaModel

/// `Presets/ladder.json`: the rungs and the encoding rules shared by all of them. Read it with `PresetLoader`.
package struct LadderPreset: PresetFile, Equatable {
    package struct Rung: Codable, Sendable, Equatable {
        package var id: String
        package var shortSide: Int
        package var crf: Int
        package var maxBitrateKbps: Int
        package var bufferKbits: Int
        package var audioBitrateKbps: Int
        /// libx265's CRF for this rung's HEVC rendition; nil for `hevc.crf_offset` above `crf`.
        package var hevcCRF: Int?
        /// SVT-AV1's CRF (0...63) for this rung's AV1 rendition; nil for `av1.crf_offset` above `crf`.
        package var av1CRF: Int?
        /// With content-aware rates, the SSIM-Y the H.264 rendition keeps while its CRF rises above `crf`; nil: only
        /// `content_aware.max_ssim_drop` bounds the rise.
        package var targetSSIMY: Double?

        package init(
            id: String, shortSide: Int, crf: Int, maxBitrateKbps: Int, bufferKbits: Int, audioBitrateKbps: Int,
            hevcCRF: Int? = nil, av1CRF: Int? = nil, targetSSIMY: Double? = nil
        ) {
            self.id = id
            self.shortSide = shortSide
            self.crf = crf
            self.maxBitrateKbps = maxBitrateKbps
            self.bufferKbits = bufferKbits
            self.audioBitrateKbps = audioBitrateKbps
            self.hevcCRF = hevcCRF
            self.av1CRF = av1CRF
            self.targetSSIMY = targetSSIMY
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, crf
            case targetSSIMY = "target_ssim_y"
            case shortSide = "short_side"
            case maxBitrateKbps = "max_bitrate_kbps"
            case bufferKbits = "buffer_kbits"
            case audioBitrateKbps = "audio_bitrate_kbps"
            case hevcCRF = "hevc_crf"
            case av1CRF = "av1_crf"
        }
    }

    /// An encoder's settings for the rungs of one codec: its speed preset (x265 names one, SVT-AV1 numbers one) and
    /// what a rung's CRF gains in it when the rung names none of its own (`hevc_crf`, `av1_crf`).
    package struct CodecSettings<Speed: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
        package var preset: Speed
        package var crfOffset: Int
        /// Content-aware rates probe this codec at two CRFs this far apart, around the H.264 CRF plus `crf_offset`.
        package var probeCRFStep: Int
        package init(preset: Speed, crfOffset: Int, probeCRFStep: Int) {
            self.preset = preset
            self.crfOffset = crfOffset
            self.probeCRFStep = probeCRFStep
        }
        enum CodingKeys: String, CodingKey, CaseIterable {
            case preset
            case crfOffset = "crf_offset"
            case probeCRFStep = "probe_crf_step"
        }
    }

    /// Content-aware rates (`RateAnalysis`): before the ladder is encoded, a few short windows of the clip are
    /// encoded at two CRFs per rung and codec and read back; each rendition's CRF is then chosen from how its SSIM-Y
    /// falls with the CRF on this clip. H.264 rises from the rung's `crf` while it keeps `target_ssim_y` and loses
    /// at most `max_ssim_drop`; HEVC and AV1 take the highest CRF that stays within `codec_ssim_margin` of the H.264
    /// rendition's quality.
    package struct ContentAware: Codable, Sendable, Equatable {
        package var enabled: Bool
        /// Windows sampled, spread evenly over the clip, and each one's length.
        package var samples: Int
        package var sampleSeconds: Double
        /// H.264's CRF rises at most this far above the rung's `crf` (its second probe is there); it never falls below.
        package var maxCRFRaise: Int
        /// The SSIM-Y an H.264 rendition may lose against the rung's `crf`, as the probes predict it.
        package var maxSSIMDrop: Double
        /// How far below the H.264 rendition's predicted SSIM-Y the HEVC and AV1 renditions may aim.
        package var codecSSIMMargin: Double

        package init(
            enabled: Bool, samples: Int, sampleSeconds: Double, maxCRFRaise: Int, maxSSIMDrop: Double,
            codecSSIMMargin: Double
        ) {
            self.enabled = enabled
            self.samples = samples
            self.sampleSeconds = sampleSeconds
            self.maxCRFRaise = maxCRFRaise
            self.maxSSIMDrop = maxSSIMDrop
            self.codecSSIMMargin = codecSSIMMargin
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case enabled, samples
            case sampleSeconds = "sample_seconds"
            case maxCRFRaise = "max_crf_raise"
            case maxSSIMDrop = "max_ssim_drop"
            case codecSSIMMargin = "codec_ssim_margin"
        }
    }

    /// libx265, Main 8-bit; x265's speed preset names.
    package typealias HEVC = CodecSettings<String>
    /// SVT-AV1 (`libsvtav1`); presets 0 (slowest) to 13 (fastest), and a CRF scale that runs to 63.
    package typealias AV1 = CodecSettings<Int>

    package struct Audio: Codable, Sendable, Equatable {
        package var sampleRate: Int
        package var channels: Int
        package init(sampleRate: Int, channels: Int) {
            self.sampleRate = sampleRate
            self.channels = channels
        }
        enum CodingKeys: String, CodingKey, CaseIterable {
            case sampleRate = "sample_rate"
            case channels
        }
    }

    package struct Poster: Codable, Sendable, Equatable {
        package var searchSeconds: Double
        package var rung: String
        package init(searchSeconds: Double, rung: String) {
            self.searchSeconds = searchSeconds
            self.rung = rung
        }
        enum CodingKeys: String, CodingKey, CaseIterable {
            case searchSeconds = "search_seconds"
            case rung
        }
    }

    package var segmentSeconds: Double
    package var keyframeIntervalSeconds: Double
    package var maxFrameRate: Double
    package var x264Preset: String
    package var audio: Audio
    package var rungs: [Rung]
    package var poster: Poster
    /// The video codecs every rung is made in; H.264 always among them (the fallback every player decodes).
    package var codecs: [VideoCodec]
    package var hevc: HEVC
    package var av1: AV1
    package var contentAware: ContentAware
    /// The one loudness every rendition's audio is brought to (`Loudness`).
    package var loudness: Loudness

    package init(
        segmentSeconds: Double, keyframeIntervalSeconds: Double, maxFrameRate: Double, x264Preset: String,
        audio: Audio, rungs: [Rung], poster: Poster, codecs: [VideoCodec] = [.h264],
        hevc: HEVC = LadderPreset.defaultHEVC, av1: AV1 = LadderPreset.defaultAV1,
        contentAware: ContentAware = LadderPreset.fixedRates, loudness: Loudness = .default
    ) {
        self.segmentSeconds = segmentSeconds
        self.keyframeIntervalSeconds = keyframeIntervalSeconds
        self.maxFrameRate = maxFrameRate
        self.x264Preset = x264Preset
        self.audio = audio
        self.rungs = rungs
        self.poster = poster
        self.codecs = codecs
        self.hevc = hevc
        self.av1 = av1
        self.contentAware = contentAware
        self.loudness = loudness
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case segmentSeconds = "segment_seconds"
        case keyframeIntervalSeconds = "keyframe_interval_seconds"
        case maxFrameRate = "max_frame_rate"
        case x264Preset = "x264_preset"
        case audio, rungs, poster, codecs, hevc, av1, loudness
        case contentAware = "content_aware"
    }

    /// x265 `medium` and SVT-AV1 preset 8: the slowest presets whose rungs cost well under three times the whole H.264
    /// ladder's CPU (docs/benchmarks.md). On 15 s 1080x1920 clips against a 26–30 CPU s H.264 ladder, x265 `medium`
    /// cost 1.4–1.8x it and `veryfast` 1.1–1.4x; SVT-AV1 8 cost 1.6–2.0x and 10 0.8–0.9x. x265 `superfast` and
    /// SVT-AV1 12 spent as many bytes as H.264 on real footage.
    package static let defaultHEVC = HEVC(preset: "medium", crfOffset: 4, probeCRFStep: 6)
    package static let defaultAV1 = AV1(preset: 8, crfOffset: 20, probeCRFStep: 12)
    /// Content-aware rates' settings, switched off: every rung at its own `crf`.
    package static let fixedRates = ContentAware(
        enabled: false, samples: 2, sampleSeconds: 2, maxCRFRaise: 8,
        maxSSIMDrop: 0.0025, codecSSIMMargin: 0)
    /// The shipped setting: content-aware rates on.
    package static let contentAwareRates: ContentAware = {
        var settings = fixedRates
        settings.enabled = true
        return settings
    }()

    /// The CRF of `rung`'s rendition in `codec`.
    package func crf(_ codec: VideoCodec, rung: Rung) -> Int {
        switch codec {
        case .h264: rung.crf
        case .hevc: rung.hevcCRF ?? rung.crf + hevc.crfOffset
        case .av1: rung.av1CRF ?? rung.crf + av1.crfOffset
        }
    }

    /// How far `codec`'s CRF sits above H.264's (`crf_offset`) and how far apart its two content-aware probes are;
    /// H.264 is the reference, with neither.
    func offsetAndProbeStep(_ codec: VideoCodec) -> (offset: Int, step: Int) {
        switch codec {
        case .h264: (0, 0)
        case .hevc: (hevc.crfOffset, hevc.probeCRFStep)
        case .av1: (av1.crfOffset, av1.probeCRFStep)
        }
    }

    /// The product design: 360p/720p/1080p capped at 1.5/3/6 Mbps, 2 s segments (the first frame comes sooner than
    /// with 4 s ones, measured in docs/hls.md), an IDR every 2 s, ≤ 30 fps.
    package static let `default` = LadderPreset(
        segmentSeconds: 2, keyframeIntervalSeconds: 2, maxFrameRate: 30, x264Preset: "veryfast",
        audio: Audio(sampleRate: 48_000, channels: 2),
        rungs: [
            Rung(
                id: "360p", shortSide: 360, crf: 21, maxBitrateKbps: 1500, bufferKbits: 3000, audioBitrateKbps: 64,
                targetSSIMY: 0.985),
            Rung(
                id: "720p", shortSide: 720, crf: 21, maxBitrateKbps: 3000, bufferKbits: 6000, audioBitrateKbps: 96,
                targetSSIMY: 0.988),
            Rung(
                id: "1080p", shortSide: 1080, crf: 21, maxBitrateKbps: 6000, bufferKbits: 12000, audioBitrateKbps: 128,
                targetSSIMY: 0.990),
        ],
        poster: Poster(searchSeconds: 3, rung: "720p"),
        contentAware: contentAwareRates
    )
}
