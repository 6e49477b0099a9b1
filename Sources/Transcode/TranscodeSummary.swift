package import MediaModel

/// What `reel transcode` produced, measured after encoding; the JSON summary and the catalog's rendition rows.
package struct TranscodeSummary: Codable, Sendable {
    package struct Rendition: Codable, Sendable {
        package var id: String
        package var width: Int
        package var height: Int
        package var playlist: String
        package var bytes: Int
        /// Peak and average segment bitrate in bit/s, as declared in the master playlist.
        package var bandwidth: Int
        package var averageBandwidth: Int
        package var codecs: String
        package var segments: Int
        package var frames: Int
        /// The ladder rung this rendition makes (its id without the codec), its video codec and the CRF it used;
        /// nil in summaries written before codecs.
        package var rung: String?
        package var videoCodec: VideoCodec?
        package var crf: Double?
        /// SSIM of the luma plane against the source scaled to this size (Lanczos, as the ladder scales), the mean
        /// over every picture; measured when asked for (`reel transcode --ssim`) and when content-aware rates are
        /// checked (`rateCheck`).
        package var ssimY: Double?
        /// The SSIM-Y the content-aware analysis chose `crf` to reach (`RateAnalysis`); nil for a fixed CRF.
        package var targetSSIMY: Double?
        /// CPU seconds this rendition's video encoder used, its own threads and its calls on the rung's thread;
        /// nil in summaries written before Reel measured it.
        package var encodeCPUSeconds: Double?
        /// What prefetching this rendition's start costs, measured from the playlist and files the job wrote, so the
        /// worker publishes it without reading them again; nil in summaries written before.
        package var prefetch: PrefetchHint? = nil
        /// The dynamic range the rendition's video is made for, which the master states as its VIDEO-RANGE: SDR
        /// unless an HDR rung sets it. Summaries written before it say nothing and were all SDR.
        package var videoRange: VideoRange = .sdr

        enum CodingKeys: String, CodingKey {
            case id, width, height, playlist, bytes, bandwidth, codecs, segments, frames, rung, crf, prefetch
            case averageBandwidth = "average_bandwidth"
            case videoCodec = "video_codec"
            case ssimY = "ssim_y"
            case targetSSIMY = "target_ssim_y"
            case encodeCPUSeconds = "encode_cpu_seconds"
            case videoRange = "video_range"
        }
    }

    /// A video's dynamic range as an HLS master names it (VIDEO-RANGE): SDR, or HDR with the HLG or PQ transfer.
    package enum VideoRange: String, Codable, Sendable, CaseIterable {
        case sdr = "SDR"
        case hlg = "HLG"
        case pq = "PQ"
    }

    package var source: String
    package var output: String
    package var durationSeconds: Double
    package var frameRate: Double
    package var renditions: [Rendition]
    package var posterJPEG: String
    package var posterWebP: String
    package var posterTimeSeconds: Double
    /// The scrubbing thumbnails, with paths relative to `output`; nil in summaries written before storyboards.
    package var storyboard: Storyboard?
    package var elapsedSeconds: Double
    /// What the content-aware analysis measured and chose; nil when the ladder's CRFs are fixed.
    package var rateAnalysis: RateAnalysis?
    /// How the published renditions stand against the content-aware bounds, and which were encoded again to keep
    /// them; nil when nothing needed checking (fixed CRFs, or an H.264 ladder whose CRFs all stayed).
    package var rateCheck: RateCheck? = nil
    /// The source's loudness and what was done to bring every rendition's audio to the target (issue 61); nil
    /// when the clip has no audio (or the preset turns loudness off), and in summaries written before.
    package var loudness: AudioLoudness? = nil

    enum CodingKeys: String, CodingKey {
        case source, output, renditions, storyboard, loudness
        case rateAnalysis = "rate_analysis"
        case rateCheck = "rate_check"
        case durationSeconds = "duration_seconds"
        case frameRate = "frame_rate"
        case posterJPEG = "poster_jpeg"
        case posterWebP = "poster_webp"
        case posterTimeSeconds = "poster_time_seconds"
        case elapsedSeconds = "elapsed_seconds"
    }
}

extension TranscodeSummary.Rendition {
    /// Decodes a summary's rendition; a missing `video_range` (summaries written before it) is SDR.
    /// - Throws: `DecodingError` when a required field is missing or has the wrong type.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        width = try container.decode(Int.self, forKey: .width)
        height = try container.decode(Int.self, forKey: .height)
        playlist = try container.decode(String.self, forKey: .playlist)
        bytes = try container.decode(Int.self, forKey: .bytes)
        bandwidth = try container.decode(Int.self, forKey: .bandwidth)
        averageBandwidth = try container.decode(Int.self, forKey: .averageBandwidth)
        codecs = try container.decode(String.self, forKey: .codecs)
        segments = try container.decode(Int.self, forKey: .segments)
        frames = try container.decode(Int.self, forKey: .frames)
        rung = try container.decodeIfPresent(String.self, forKey: .rung)
        videoCodec = try container.decodeIfPresent(VideoCodec.self, forKey: .videoCodec)
        crf = try container.decodeIfPresent(Double.self, forKey: .crf)
        ssimY = try container.decodeIfPresent(Double.self, forKey: .ssimY)
        targetSSIMY = try container.decodeIfPresent(Double.self, forKey: .targetSSIMY)
        encodeCPUSeconds = try container.decodeIfPresent(Double.self, forKey: .encodeCPUSeconds)
        prefetch = try container.decodeIfPresent(PrefetchHint.self, forKey: .prefetch)
        videoRange = try container.decodeIfPresent(TranscodeSummary.VideoRange.self, forKey: .videoRange) ?? .sdr
    }
}

/// A progress report: how far into the source the encode is, and how fast.
package struct TranscodeProgress: Codable, Sendable {
    package var seconds: Double
    package var durationSeconds: Double
    package var speed: Double

    package var percent: Double { durationSeconds > 0 ? min(100, 100 * seconds / durationSeconds) : 0 }
    package var etaSeconds: Double { speed > 0 ? max(0, (durationSeconds - seconds) / speed) : 0 }

    enum CodingKeys: String, CodingKey {
        case seconds, speed
        case durationSeconds = "duration_seconds"
    }
}
