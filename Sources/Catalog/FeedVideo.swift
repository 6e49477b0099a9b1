package import MediaModel

/// One published video as the feed serves it.
package struct FeedVideo: Sendable, Equatable {
    package struct Rendition: Codable, Sendable, Equatable {
        /// The rendition's id, which is also its folder: the ladder rung for H.264 (`720p`), the rung and the codec
        /// for the others (`720p-hevc`, `720p-av1`).
        package var rung: String
        package var width: Int
        package var height: Int
        package var bandwidth: Int
        package var averageBandwidth: Int
        package var codecs: String
        package var segments: Int
        /// The video codec, `h264`, `hevc` or `av1` (Transcode's `VideoCodec` names; the catalog keeps it a string).
        /// nil, not `h264`, for renditions published before Reel recorded it, although all of those are H.264: the
        /// catalog keeps NULL and the item omits the key, so items stored before stay what a render would give.
        package var videoCodec: String?
        /// The CRF the rendition was encoded with; nil for renditions published before Reel recorded it.
        package var crf: Double?
        /// The SSIM-Y the content-aware rate analysis chose `crf` to reach; nil for a fixed CRF, and for renditions
        /// published before Reel recorded it.
        package var targetSSIMY: Double?
        /// What prefetching this rendition's start costs; nil for videos published before Reel measured it.
        package var prefetch: PrefetchHint?

        package init(
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
        package static func precedes(_ a: Rendition, _ b: Rendition) -> Bool {
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

    package var id: String
    package var publishedAt: Int64
    package var durationMilliseconds: Int
    package var width: Int
    package var height: Int
    package var masterPath: String?
    package var posterJPEGPath: String?
    package var posterWebPPath: String?
    /// Ordered by height, then codec (`Rendition.precedes`).
    package var renditions: [Rendition]
    /// The scrubbing thumbnails; nil for videos published before Reel made them.
    package var storyboard: Storyboard?
    /// The source's loudness and the gain that brought the audio to the target; nil without audio, and for videos
    /// published before Reel measured it.
    package var loudness: AudioLoudness?
    /// `playable` while only a provisional rendition is published.
    package var stage: VideoStage
    /// The caption, title, creator and visibility.
    package var post: PostFacts
    /// Raised whenever a private post's signed URLs are revoked (`PATCH /v1/videos/{id}`): a URL signed for an earlier
    /// one no longer plays.
    package var accessEpoch: Int64

    package init(
        id: String, publishedAt: Int64, durationMilliseconds: Int, width: Int, height: Int, masterPath: String?,
        posterJPEGPath: String?, posterWebPPath: String?, renditions: [Rendition], storyboard: Storyboard? = nil,
        loudness: AudioLoudness? = nil, stage: VideoStage = .published, post: PostFacts = PostFacts(),
        accessEpoch: Int64 = 0
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
        self.stage = stage
        self.post = post
        self.accessEpoch = accessEpoch
    }
}
