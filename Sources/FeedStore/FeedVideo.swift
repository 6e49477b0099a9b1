public import MediaModel

/// One published video as the feed serves it.
public struct FeedVideo: Sendable, Equatable {
    public struct Rendition: Codable, Sendable, Equatable {
        public var rung: String
        public var width: Int
        public var height: Int
        public var bandwidth: Int
        public var averageBandwidth: Int
        public var codecs: String
        public var segments: Int
        /// What prefetching this rendition's start costs; nil for videos published before Reel measured it.
        public var prefetch: PrefetchHint?

        public init(rung: String, width: Int, height: Int, bandwidth: Int, averageBandwidth: Int, codecs: String, segments: Int,
                    prefetch: PrefetchHint? = nil) {
            self.rung = rung
            self.width = width
            self.height = height
            self.bandwidth = bandwidth
            self.averageBandwidth = averageBandwidth
            self.codecs = codecs
            self.segments = segments
            self.prefetch = prefetch
        }

        enum CodingKeys: String, CodingKey {
            case rung, width, height, bandwidth, codecs, segments, prefetch
            case averageBandwidth = "average_bandwidth"
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
    /// Ordered by height.
    public var renditions: [Rendition]
    /// The scrubbing thumbnails; nil for videos published before Reel made them.
    public var storyboard: Storyboard?

    public init(id: String, publishedAt: Int64, durationMilliseconds: Int, width: Int, height: Int, masterPath: String?,
                posterJPEGPath: String?, posterWebPPath: String?, renditions: [Rendition], storyboard: Storyboard? = nil) {
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
    }
}
