import Catalog
import MediaModel
import SQLiteCatalog

/// Media and jobs the conformance tests publish: every column a video has, so a round trip shows what an engine drops.
enum Fixtures {
    /// What admission learnt about an original: a 1080x1920 H.264/AAC MP4.
    static let source = MediaInfo(
        path: "", kind: .video, container: "mp4", fileSize: 9_000_000, durationSeconds: 15.25, bitRate: 4_700_000,
        streamCount: 2,
        video: .init(
            index: 0, codec: "h264", profile: "High", pixelFormat: "yuv420p", bitDepth: 8, codedWidth: 1080,
            codedHeight: 1920, displayWidth: 1080, displayHeight: 1920, rotation: 0, averageFrameRate: 30,
            realFrameRate: 30, isVariableFrameRate: false, frameCount: 458, durationSeconds: 15.25, bitRate: 4_500_000),
        audio: .init(index: 1, codec: "aac", channels: 2, sampleRate: 48_000, durationSeconds: 15.25), image: nil)

    static func video(_ id: String, hash: String, publishedAt: Int64 = 1_700_000_000_000) -> PublishedVideo {
        PublishedVideo(
            id: id, createdAt: publishedAt - 5_000, publishedAt: publishedAt, durationMilliseconds: 15_250, width: 1080,
            height: 1920,
            contentHash: hash, source: source, masterPath: "videos/\(id)/master.m3u8",
            posterJPEGPath: "videos/\(id)/poster.jpg", posterWebPPath: "videos/\(id)/poster.webp",
            renditions: [
                FeedVideo.Rendition(
                    rung: "360p", width: 360, height: 640, bandwidth: 700_000, averageBandwidth: 600_000,
                    codecs: "avc1.64001e,mp4a.40.2", segments: 8,
                    prefetch: PrefetchHint(
                        initBytes: 812, segmentDurationMilliseconds: 2_000,
                        firstSegments: [
                            .init(durationMilliseconds: 2_000, bytes: 150_001),
                            .init(durationMilliseconds: 1_250, bytes: 90_002),
                        ])),
                FeedVideo.Rendition(
                    rung: "1080p", width: 1080, height: 1920, bandwidth: 4_000_000, averageBandwidth: 3_500_000,
                    codecs: "avc1.640028,mp4a.40.2", segments: 8, prefetch: nil),
            ],
            storyboard: Storyboard(
                vttPath: "videos/\(id)/storyboard.vtt", imagePath: "videos/\(id)/storyboard.webp", intervalSeconds: 1,
                tileWidth: 90, tileHeight: 160, columns: 10, count: 16),
            loudness: loudness)
    }

    /// A quiet source brought up to the target, its peaks limited (issue 61).
    static let loudness = AudioLoudness(
        sourceLUFS: -27.5, sourceTruePeakDBTP: -12.25, gainDB: 14.75, targetLUFS: -14, truePeakCeilingDBTP: -1,
        isLimited: true, isCapped: false, isSilent: false)

    /// A video whose ladder has H.264, HEVC and AV1 renditions, listed in no particular order (as a summary may),
    /// each with its codec and CRF; the AV1 rung at 360p has a fixed CRF, so no target.
    static func multiCodecVideo(_ id: String, hash: String) -> PublishedVideo {
        var video = video(id, hash: hash)
        video.renditions = [
            rendition("720p-av1", height: 720, codecs: "av01.0.05M.08,mp4a.40.2", codec: "av1", crf: 36, target: 0.968),
            rendition("360p", height: 360, codecs: "avc1.64001e,mp4a.40.2", codec: "h264", crf: 24.3, target: 0.9625),
            rendition(
                "720p-hevc", height: 720, codecs: "hvc1.1.6.L93.90,mp4a.40.2", codec: "hevc", crf: 27.1, target: 0.968),
            rendition("360p-av1", height: 360, codecs: "av01.0.01M.08,mp4a.40.2", codec: "av1", crf: 38, target: nil),
            rendition("720p", height: 720, codecs: "avc1.64001f,mp4a.40.2", codec: "h264", crf: 22.7, target: 0.968),
            rendition(
                "360p-hevc", height: 360, codecs: "hvc1.1.6.L63.90,mp4a.40.2", codec: "hevc", crf: 28.6, target: 0.9625),
        ]
        return video
    }

    static func rendition(
        _ id: String, height: Int, codecs: String, codec: String, crf: Double, target: Double?
    ) -> FeedVideo.Rendition {
        FeedVideo.Rendition(
            rung: id, width: height * 9 / 16, height: height, bandwidth: height * 2_000,
            averageBandwidth: height * 1_500,
            codecs: codecs, segments: 8, videoCodec: codec, crf: crf, targetSSIMY: target)
    }

    static func image(_ id: String, hash: String) -> PublishedImage {
        PublishedImage(
            id: id, createdAt: 1_700_000_000_000, width: 2048, height: 1536, bytes: 345_678, path: "images/\(id).webp",
            contentHash: hash)
    }

    /// A job as the worker makes one: inserted held by `owner` (epoch 0), then released to the queue. Its source name
    /// is `<id>.mp4` unless given (names are bytes, not text).
    static func queue(
        _ store: any JobQueue, _ id: String, now: Int64, owner: String = "intake",
        sourceName: [UInt8]? = nil
    ) async throws {
        try await store.insertJob(
            id: id, sourceName: sourceName ?? Array("\(id).mp4".utf8), bytes: 1_000, owner: owner,
            now: now, leaseMilliseconds: 60_000)
        try await store.release(JobLease(id: id, epoch: 0, owner: owner), now: now)
    }
}
