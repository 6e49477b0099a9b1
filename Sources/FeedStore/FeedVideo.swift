internal import Foundation

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

        public init(rung: String, width: Int, height: Int, bandwidth: Int, averageBandwidth: Int, codecs: String, segments: Int) {
            self.rung = rung
            self.width = width
            self.height = height
            self.bandwidth = bandwidth
            self.averageBandwidth = averageBandwidth
            self.codecs = codecs
            self.segments = segments
        }

        enum CodingKeys: String, CodingKey {
            case rung, width, height, bandwidth, codecs, segments
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
    /// The renditions as a JSON array ordered by height, rendered by SQLite in the page query itself: one query
    /// per page, and the server copies it out without decoding and re-encoding.
    public var renditionsJSON: String

    public var renditions: [Rendition] {
        (try? JSONDecoder().decode([Rendition].self, from: Data(renditionsJSON.utf8))) ?? []
    }
}
