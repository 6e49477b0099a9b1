/// The upload limits from `Presets/limits.json`. Sizes are in bytes (MB = 10^6 bytes).
public struct AdmissionLimits: Codable, Sendable, Equatable {
    public struct Video: Codable, Sendable, Equatable {
        public var maxBytes: Int64
        public var maxDurationSeconds: Double
        /// Phones write 60.03 s for a 60 s clip; this much over the limit is still accepted.
        public var durationToleranceSeconds: Double
        public var minDurationSeconds: Double
        public var maxFrameRate: Double
        public var maxSide: Int
        public var maxPixels: Int
        public var maxStreams: Int
        public var containers: [String]
        public var codecs: [String]

        public init(
            maxBytes: Int64, maxDurationSeconds: Double, durationToleranceSeconds: Double,
            minDurationSeconds: Double, maxFrameRate: Double, maxSide: Int, maxPixels: Int, maxStreams: Int,
            containers: [String], codecs: [String]
        ) {
            self.maxBytes = maxBytes
            self.maxDurationSeconds = maxDurationSeconds
            self.durationToleranceSeconds = durationToleranceSeconds
            self.minDurationSeconds = minDurationSeconds
            self.maxFrameRate = maxFrameRate
            self.maxSide = maxSide
            self.maxPixels = maxPixels
            self.maxStreams = maxStreams
            self.containers = containers
            self.codecs = codecs
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case maxBytes = "max_bytes"
            case maxDurationSeconds = "max_duration_seconds"
            case durationToleranceSeconds = "duration_tolerance_seconds"
            case minDurationSeconds = "min_duration_seconds"
            case maxFrameRate = "max_frame_rate"
            case maxSide = "max_side"
            case maxPixels = "max_pixels"
            case maxStreams = "max_streams"
            case containers
            case codecs
        }
    }

    public struct Image: Codable, Sendable, Equatable {
        public var maxBytes: Int64
        public var maxSide: Int
        public var maxPixels: Int
        public var formats: [String]

        public init(maxBytes: Int64, maxSide: Int, maxPixels: Int, formats: [String]) {
            self.maxBytes = maxBytes
            self.maxSide = maxSide
            self.maxPixels = maxPixels
            self.formats = formats
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case maxBytes = "max_bytes"
            case maxSide = "max_side"
            case maxPixels = "max_pixels"
            case formats
        }
    }

    public var video: Video
    public var image: Image

    enum CodingKeys: String, CodingKey, CaseIterable {
        case video, image
    }

    public init(video: Video, image: Image) {
        self.video = video
        self.image = image
    }

    /// The product design's defaults; `Presets/limits.json` holds the same values.
    public static let `default` = AdmissionLimits(
        video: Video(
            maxBytes: 50_000_000, maxDurationSeconds: 60, durationToleranceSeconds: 0.5,
            minDurationSeconds: 1, maxFrameRate: 60, maxSide: 4096, maxPixels: 4096 * 2304, maxStreams: 8,
            containers: ["mov", "matroska"], codecs: ["h264", "hevc", "vp8", "vp9", "av1", "mpeg4"]
        ),
        image: Image(
            maxBytes: 20_000_000, maxSide: 16383, maxPixels: 50_000_000,
            formats: ["jpeg", "png", "webp", "gif", "bmp", "tiff", "heif"]
        )
    )
}
