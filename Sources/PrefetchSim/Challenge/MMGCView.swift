/// What a challenge-mode policy sees before each step: a read-only snapshot, so a policy cannot bend the session.
public struct MMGCView: Sendable {
    public let videos: [ShortVideo]
    public let playing: Int
    public let positionMilliseconds: Int
    /// Chunks downloaded so far, per session video.
    public let downloaded: [Int]
    /// The last (up to 5) throughput samples in kbps: bytes·8 / delay including the RTT.
    public let throughputKbps: [Double]

    /// The rung of each chunk downloaded so far, per session video (baselines look at their own history).
    public var rungs: [[Int]] = []
    /// The step just taken; nil before the first, where the challenge's baselines answer without looking.
    public var previousStep: MMGCStep?

    public init(
        videos: [ShortVideo], playing: Int, positionMilliseconds: Int, downloaded: [Int], throughputKbps: [Double]
    ) {
        self.videos = videos
        self.playing = playing
        self.positionMilliseconds = positionMilliseconds
        self.downloaded = downloaded
        self.throughputKbps = throughputKbps
    }

    public var queue: Range<Int> { playing..<min(videos.count, playing + 5) }

    public func bufferMilliseconds(_ video: Int) -> Int {
        video == playing ? downloaded[video] * 1000 - positionMilliseconds : downloaded[video] * 1000
    }

    public func hasChunkLeft(_ video: Int) -> Bool { downloaded[video] < videos[video].chunkCount }

    /// Bytes downloaded so far for `video`, at the rungs taken (the challenge's `get_preload_size`).
    public func downloadedBytes(_ video: Int) -> Int {
        rungs[video].enumerated().reduce(0) { $0 + videos[video].chunkBytes[$1.element][$1.offset] }
    }
}
