/// What `reel probe` reports about a file; encoded as stable snake_case JSON.
public struct MediaInfo: Codable, Sendable, Equatable {
    public struct Video: Codable, Sendable, Equatable {
        public var index: Int
        public var codec: String
        public var profile: String?
        public var pixelFormat: String
        public var bitDepth: Int
        public var codedWidth: Int
        public var codedHeight: Int
        /// Width and height as shown, after rotation.
        public var displayWidth: Int
        public var displayHeight: Int
        /// Clockwise degrees from the display matrix (0, 90, 180 or 270).
        public var rotation: Int
        public var averageFrameRate: Double
        public var realFrameRate: Double
        /// True when frames are not evenly spaced (average and real rates differ).
        public var isVariableFrameRate: Bool
        public var frameCount: Int64?
        public var durationSeconds: Double?
        public var bitRate: Int64?
        /// Colour tags and HDR kind; nil only in records written before Reel read them.
        public var colour: VideoColour?

        public init(
            index: Int, codec: String, profile: String?, pixelFormat: String, bitDepth: Int, codedWidth: Int,
            codedHeight: Int, displayWidth: Int, displayHeight: Int, rotation: Int, averageFrameRate: Double,
            realFrameRate: Double, isVariableFrameRate: Bool, frameCount: Int64?, durationSeconds: Double?,
            bitRate: Int64?, colour: VideoColour? = nil
        ) {
            self.index = index
            self.codec = codec
            self.profile = profile
            self.pixelFormat = pixelFormat
            self.bitDepth = bitDepth
            self.codedWidth = codedWidth
            self.codedHeight = codedHeight
            self.displayWidth = displayWidth
            self.displayHeight = displayHeight
            self.rotation = rotation
            self.averageFrameRate = averageFrameRate
            self.realFrameRate = realFrameRate
            self.isVariableFrameRate = isVariableFrameRate
            self.frameCount = frameCount
            self.durationSeconds = durationSeconds
            self.bitRate = bitRate
            self.colour = colour
        }

        enum CodingKeys: String, CodingKey {
            case index, codec, profile, rotation
            case pixelFormat = "pixel_format"
            case bitDepth = "bit_depth"
            case codedWidth = "coded_width"
            case codedHeight = "coded_height"
            case displayWidth = "display_width"
            case displayHeight = "display_height"
            case averageFrameRate = "average_frame_rate"
            case realFrameRate = "real_frame_rate"
            case isVariableFrameRate = "variable_frame_rate"
            case frameCount = "frame_count"
            case durationSeconds = "duration_seconds"
            case bitRate = "bit_rate"
            case colour
        }
    }

    public struct Audio: Codable, Sendable, Equatable {
        public var index: Int
        public var codec: String
        public var channels: Int
        public var sampleRate: Int
        public var durationSeconds: Double?

        public init(index: Int, codec: String, channels: Int, sampleRate: Int, durationSeconds: Double?) {
            self.index = index
            self.codec = codec
            self.channels = channels
            self.sampleRate = sampleRate
            self.durationSeconds = durationSeconds
        }

        enum CodingKeys: String, CodingKey {
            case index, codec, channels
            case sampleRate = "sample_rate"
            case durationSeconds = "duration_seconds"
        }
    }

    public struct Image: Codable, Sendable, Equatable {
        public var format: String
        public var width: Int
        public var height: Int
        /// EXIF orientation 1–8 (1 when absent).
        public var orientation: Int
        /// Width and height after applying the orientation.
        public var displayWidth: Int
        public var displayHeight: Int
        public var hasAlpha: Bool
        public var frameCount: Int
        public var pixelFormat: String?

        public init(
            format: String, width: Int, height: Int, orientation: Int, hasAlpha: Bool, frameCount: Int,
            pixelFormat: String?
        ) {
            self.format = format
            self.width = width
            self.height = height
            self.orientation = orientation
            let swaps = orientation >= 5 && orientation <= 8
            self.displayWidth = swaps ? height : width
            self.displayHeight = swaps ? width : height
            self.hasAlpha = hasAlpha
            self.frameCount = frameCount
            self.pixelFormat = pixelFormat
        }

        enum CodingKeys: String, CodingKey {
            case format, width, height, orientation
            case displayWidth = "display_width"
            case displayHeight = "display_height"
            case hasAlpha = "has_alpha"
            case frameCount = "frame_count"
            case pixelFormat = "pixel_format"
        }
    }

    public var path: String
    public var kind: MediaKind
    public var container: String
    public var fileSize: Int64
    public var durationSeconds: Double?
    public var bitRate: Int64?
    public var streamCount: Int
    public var video: Video?
    public var audio: Audio?
    public var image: Image?

    public init(
        path: String, kind: MediaKind, container: String, fileSize: Int64, durationSeconds: Double?, bitRate: Int64?,
        streamCount: Int, video: Video?, audio: Audio?, image: Image?
    ) {
        self.path = path
        self.kind = kind
        self.container = container
        self.fileSize = fileSize
        self.durationSeconds = durationSeconds
        self.bitRate = bitRate
        self.streamCount = streamCount
        self.video = video
        self.audio = audio
        self.image = image
    }

    enum CodingKeys: String, CodingKey {
        case path, kind, container, video, audio, image
        case fileSize = "file_size"
        case durationSeconds = "duration_seconds"
        case bitRate = "bit_rate"
        case streamCount = "stream_count"
    }
}
