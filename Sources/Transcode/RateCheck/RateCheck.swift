/// What the ladder's check of its own quality found, in the job's summary (`TranscodeSummary.rateCheck`): each
/// rendition set against its bound once encoded, and every rendition that ended outside encoded again until it was
/// inside (`RateChecker`).
package struct RateCheck: Codable, Sendable {
    /// What a rendition's SSIM-Y is held against.
    package enum Reference: String, Codable, Sendable {
        /// An H.264 rendition at its rung's own CRF: it is its own reference.
        case ownCRF = "own_crf"
        /// An H.264 rendition above its rung's CRF: that CRF's SSIM-Y over the clip, as the parts of the clip measured
        /// at both CRFs say (`RateBound.h264Reference`).
        case rungCRF = "rung_crf"
        /// An HEVC or AV1 rendition: the rung's H.264 rendition, as measured.
        case h264 = "h264"
    }

    /// One encode of a rendition, held against its reference (for HEVC and AV1, the rung's H.264 as published).
    package struct Attempt: Codable, Sendable, Equatable {
        package var crf: Double
        /// Over every picture of the clip.
        package var ssimY: Double
        package var referenceSSIMY: Double
        /// The lowest SSIM-Y the bound allows: the reference less the allowed drop.
        package var lowestSSIMY: Double
        package var inside: Bool { ssimY >= lowestSSIMY }

        enum CodingKeys: String, CodingKey {
            case crf
            case ssimY = "ssim_y"
            case referenceSSIMY = "reference_ssim_y"
            case lowestSSIMY = "lowest_ssim_y"
        }
    }

    package struct Rendition: Codable, Sendable {
        package var id: String
        package var rung: String
        package var videoCodec: VideoCodec
        package var reference: Reference
        /// The first encode, then each one made again; the last one is published.
        package var attempts: [Attempt]
        package var inside: Bool { attempts.last?.inside ?? false }

        enum CodingKeys: String, CodingKey {
            case id, rung, reference, attempts
            case videoCodec = "video_codec"
        }
    }

    package var renditions: [Rendition]
    /// The GOPs (start, end in seconds) an encoder at each H.264 rung's own CRF sampled beside the ladder, and the
    /// CPU those encoders used; besides them, the H.264 renditions were held against their probe windows.
    package var sample: [[Double]]
    package var sampleCPUSeconds: Double
    /// How many times the clip was read again to encode renditions again, and the CPU (every thread) and wall time
    /// that took.
    package var passes: Int
    package var cpuSeconds: Double
    package var elapsedSeconds: Double

    /// Whether every published rendition is inside its bound.
    package var inside: Bool { renditions.allSatisfy(\.inside) }

    enum CodingKeys: String, CodingKey {
        case renditions, passes, sample
        case sampleCPUSeconds = "sample_cpu_seconds"
        case cpuSeconds = "cpu_seconds"
        case elapsedSeconds = "elapsed_seconds"
    }
}
