public import MediaModel

/// `Presets/ladder.json`: the rungs and the encoding rules shared by all of them. Read it with `PresetLoader`.
public struct LadderPreset: PresetFile, Equatable {
    public struct Rung: Codable, Sendable, Equatable {
        public var id: String
        public var shortSide: Int
        public var crf: Int
        public var maxBitrateKbps: Int
        public var bufferKbits: Int
        public var audioBitrateKbps: Int

        public init(id: String, shortSide: Int, crf: Int, maxBitrateKbps: Int, bufferKbits: Int, audioBitrateKbps: Int) {
            self.id = id
            self.shortSide = shortSide
            self.crf = crf
            self.maxBitrateKbps = maxBitrateKbps
            self.bufferKbits = bufferKbits
            self.audioBitrateKbps = audioBitrateKbps
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, crf
            case shortSide = "short_side"
            case maxBitrateKbps = "max_bitrate_kbps"
            case bufferKbits = "buffer_kbits"
            case audioBitrateKbps = "audio_bitrate_kbps"
        }
    }

    public struct Audio: Codable, Sendable, Equatable {
        public var sampleRate: Int
        public var channels: Int
        public init(sampleRate: Int, channels: Int) {
            self.sampleRate = sampleRate
            self.channels = channels
        }
        enum CodingKeys: String, CodingKey, CaseIterable {
            case sampleRate = "sample_rate"
            case channels
        }
    }

    public struct Poster: Codable, Sendable, Equatable {
        public var searchSeconds: Double
        public var rung: String
        public init(searchSeconds: Double, rung: String) {
            self.searchSeconds = searchSeconds
            self.rung = rung
        }
        enum CodingKeys: String, CodingKey, CaseIterable {
            case searchSeconds = "search_seconds"
            case rung
        }
    }

    public var segmentSeconds: Double
    public var keyframeIntervalSeconds: Double
    public var maxFrameRate: Double
    public var x264Preset: String
    public var audio: Audio
    public var rungs: [Rung]
    public var poster: Poster

    public init(segmentSeconds: Double, keyframeIntervalSeconds: Double, maxFrameRate: Double, x264Preset: String,
                audio: Audio, rungs: [Rung], poster: Poster) {
        self.segmentSeconds = segmentSeconds
        self.keyframeIntervalSeconds = keyframeIntervalSeconds
        self.maxFrameRate = maxFrameRate
        self.x264Preset = x264Preset
        self.audio = audio
        self.rungs = rungs
        self.poster = poster
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case segmentSeconds = "segment_seconds"
        case keyframeIntervalSeconds = "keyframe_interval_seconds"
        case maxFrameRate = "max_frame_rate"
        case x264Preset = "x264_preset"
        case audio, rungs, poster
    }

    /// The product design: 360p/720p/1080p capped at 1.5/3/6 Mbps, 2 s segments (the first frame comes sooner than
    /// with 4 s ones, measured in docs/hls.md), an IDR every 2 s, ≤ 30 fps.
    public static let `default` = LadderPreset(
        segmentSeconds: 2, keyframeIntervalSeconds: 2, maxFrameRate: 30, x264Preset: "veryfast",
        audio: Audio(sampleRate: 48_000, channels: 2),
        rungs: [
            Rung(id: "360p", shortSide: 360, crf: 21, maxBitrateKbps: 1500, bufferKbits: 3000, audioBitrateKbps: 64),
            Rung(id: "720p", shortSide: 720, crf: 21, maxBitrateKbps: 3000, bufferKbits: 6000, audioBitrateKbps: 96),
            Rung(id: "1080p", shortSide: 1080, crf: 21, maxBitrateKbps: 6000, bufferKbits: 12000, audioBitrateKbps: 128),
        ],
        poster: Poster(searchSeconds: 3, rung: "720p")
    )
}
