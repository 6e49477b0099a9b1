/// What a challenge-mode policy sees before each step, and what it may decide.
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

    public init(videos: [ShortVideo], playing: Int, positionMilliseconds: Int, downloaded: [Int], throughputKbps: [Double]) {
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
}

public enum MMGCDecision: Sendable, Equatable {
    case download(video: Int, rung: Int)
    case sleep(milliseconds: Int)
}

/// A policy for `--mode mmgc`: called before every step of the challenge's sequential downloader. A policy may
/// keep state between steps; each session starts from the value it was given.
public protocol MMGCPolicy: Sendable {
    var name: String { get }
    mutating func decide(_ view: MMGCView) -> MMGCDecision
}

/// The challenge's three rungs, in kbps.
public enum MMGCRates {
    public static let kbps: [Double] = [750, 1200, 1850]

    /// The highest rung at most 0.8 × the harmonic mean of the samples; the lowest before any sample.
    public static func rung(for samples: [Double]) -> Int {
        guard !samples.isEmpty else { return 0 }
        let harmonic = Double(samples.count) / samples.reduce(0) { $0 + 1 / $1 }
        return kbps.lastIndex { $0 <= 0.8 * harmonic } ?? 0
    }
}
