/// One run's figures in the challenge's terms (or their average over a trace set).
public struct MMGCResult: Codable, Sendable, Equatable {
    public var score: Double
    public var qoe: Double
    public var bytesDownloaded: Double
    public var wastedBytes: Double
    /// Startup delays and stalls together, as the challenge counts them.
    public var rebufferMilliseconds: Double
    public var watchMilliseconds: Double
    public var downloadWatchRatio: Double
    public var chunksDownloaded: Double

    public static let zero = MMGCResult(
        score: 0, qoe: 0, bytesDownloaded: 0, wastedBytes: 0, rebufferMilliseconds: 0,
        watchMilliseconds: 0, downloadWatchRatio: 0, chunksDownloaded: 0)

    /// Stall share: rebuffer over watch time.
    public var stallRatio: Double { watchMilliseconds > 0 ? rebufferMilliseconds / watchMilliseconds : 0 }
    public var wasteRatio: Double { bytesDownloaded > 0 ? wastedBytes / bytesDownloaded : 0 }

    enum CodingKeys: String, CodingKey {
        case score, qoe
        case bytesDownloaded = "bytes_downloaded"
        case wastedBytes = "wasted_bytes"
        case rebufferMilliseconds = "rebuffer_ms"
        case watchMilliseconds = "watch_ms"
        case downloadWatchRatio = "download_watch_ratio"
        case chunksDownloaded = "chunks_downloaded"
    }

    /// The mean of each figure, as the reference table reports a trace set.
    public static func averaged(_ results: [MMGCResult]) -> MMGCResult {
        guard !results.isEmpty else { return .zero }
        let n = Double(results.count)
        func mean(_ key: (MMGCResult) -> Double) -> Double { results.reduce(0) { $0 + key($1) } / n }
        return MMGCResult(
            score: mean(\.score), qoe: mean(\.qoe), bytesDownloaded: mean(\.bytesDownloaded),
            wastedBytes: mean(\.wastedBytes), rebufferMilliseconds: mean(\.rebufferMilliseconds),
            watchMilliseconds: mean(\.watchMilliseconds), downloadWatchRatio: mean(\.downloadWatchRatio),
            chunksDownloaded: mean(\.chunksDownloaded))
    }
}
