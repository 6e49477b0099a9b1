/// Why a published video cannot become a simulator video. Never retryable: the catalog row itself is incomplete.
public struct FeedVideoModelError: Error, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case noDuration, noRenditions, noSegments
    }

    public let video: String
    public let reason: Reason

    public init(video: String, reason: Reason) {
        self.video = video
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .noDuration: "video \(video): its duration is 0 ms, so it has nothing to play"
        case .noRenditions: "video \(video): it has no renditions"
        case .noSegments: "video \(video): its renditions list no segments"
        }
    }
}
