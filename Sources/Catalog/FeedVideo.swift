public import MediaModel

/// One published video as the feed serves it.
public struct FeedVideo: Sendable, Equatable {
    public struct Rendition: Codable, Sendable, Equatable {
        /// The rendition's id, which is also its folder: the ladder rung for H.264 (`720p`), the rung and the codec
        /// for the others (`720p-hevc`, `720p-av1`).
        public var rung: String
        public var width: Int
        public var height: Int
        public var bandwidth: Int
        public var averageBandwidth: Int
        public var codecs: String
        public var segments: Int
        /// The video codec, `h264`, `hevc` or `av1` (Transcode's `VideoCodec` names; the catalog keeps it a string).
        /// nil, not `h264`, for renditions published before Reel recorded it, although all of those are H.264: the
        /// catalog keeps NULL and the item omits the key, so items stored before stay what a render would give.
        public var videoCodec: String?
        /// The CRF the rendition was encoded with; nil for renditions published before Reel recorded it.
        public var crf: Double?
        /// The SSIM-Y the content-aware rate analysis chose `crf` to reach; nil for a fixed CRF, and for renditions
        /// published before Reel recorded it.
        public var targetSSIMY: Double?
        /// What prefetching this rendition's start costs; nil for videos published before Reel measured it.
        public var prefetch: PrefetchHint?

        public init(
            rung: String, width: Int, height: Int, bandwidth: Int, averageBandwidth: Int, codecs: String, segments: Int,
            videoCodec: String? = nil, crf: Double? = nil, targetSSIMY: Double? = nil, prefetch: PrefetchHint? = nil
        ) {
            self.rung = rung
            self.width = width
            self.height = height
            self.bandwidth = bandwidth
            self.averageBandwidth = averageBandwidth
            self.codecs = codecs
            self.segments = segments
            self.videoCodec = videoCodec
            self.crf = crf
            self.targetSSIMY = targetSSIMY
            self.prefetch = prefetch
        }

        /// Whether `a` is listed before `b`: by height, then H.264 (with the renditions from before codecs were
        /// recorded), HEVC, AV1 and any other codec, then by id. H.264 comes first at each height because every
        /// player decodes it, as in the master playlist.
        public static func precedes(_ a: Rendition, _ b: Rendition) -> Bool {
            (a.height, a.codecRank, a.rung) < (b.height, b.codecRank, b.rung)
        }

        private var codecRank: Int {
            switch videoCodec {
            case nil, "h264": 0
            case "hevc": 1
            case "av1": 2
            default: 3
            }
        }

        enum CodingKeys: String, CodingKey {
            case rung, width, height, bandwidth, codecs, segments, crf, prefetch
            case averageBandwidth = "average_bandwidth"
            case videoCodec = "video_codec"
            case targetSSIMY = "target_ssim_y"
        }
    }

    public var id: String
    public var publishedAt: Int64
    public var durationMilliseconds: Int
    public var width: Int
    public var height: Int
    public var masterPath: String?
    public var posterJPEGPath: String?
    public var posterWebPPath: String?
    /// Ordered by height, then codec (`Rendition.precedes`).
    public var renditions: [Rendition]
    /// The scrubbing thumbnails; nil for videos published before Reel made them.
    public var storyboard: Storyboard?
    /// The source's loudness and the gain that brought the audio to the target; nil without audio, and for videos
    /// published before Reel measured it.
    public var loudness: AudioLoudness?

    public init(
        id: String, publishedAt: Int64, durationMilliseconds: Int, width: Int, height: Int, masterPath: String?,
        posterJPEGPath: String?, posterWebPPath: String?, renditions: [Rendition], storyboard: Storyboard? = nil,
        loudness: AudioLoudness? = nil
    ) {
        self.id = id
        self.publishedAt = publishedAt
        self.durationMilliseconds = durationMilliseconds
        self.width = width
        self.height = height
        self.masterPath = masterPath
        self.posterJPEGPath = posterJPEGPath
        self.posterWebPPath = posterWebPPath
        self.renditions = renditions
        self.storyboard = storyboard
        self.loudness = loudness
    }
}
