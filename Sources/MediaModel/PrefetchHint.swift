/// What a client needs to prefetch the start of one rendition: the init segment's size, the segment duration and
/// the sizes of the first segments that cover the prefetch window (the product prefetches about 3 s of the next
/// items). With it a client knows what its window costs in bytes and can pick a starting rung for the bandwidth it
/// measured, before it asks for anything.
public struct PrefetchHint: Sendable, Equatable, Codable {
    public struct Segment: Sendable, Equatable, Codable {
        public var durationMilliseconds: Int
        public var bytes: Int

        public init(durationMilliseconds: Int, bytes: Int) {
            self.durationMilliseconds = durationMilliseconds
            self.bytes = bytes
        }

        enum CodingKeys: String, CodingKey {
            case bytes
            case durationMilliseconds = "duration_ms"
        }
    }

    public var initBytes: Int
    /// EXT-X-TARGETDURATION, in milliseconds.
    public var segmentDurationMilliseconds: Int
    /// The first segments, in order, until they cover the window (all of them when the video is shorter).
    public var firstSegments: [Segment]

    public static let windowMilliseconds = 3000

    /// As the job's summary (outcome.json, `reel transcode --json`) writes it.
    enum CodingKeys: String, CodingKey {
        case initBytes = "init_bytes"
        case segmentDurationMilliseconds = "segment_duration_ms"
        case firstSegments = "first_segments"
    }

    public init(initBytes: Int, segmentDurationMilliseconds: Int, firstSegments: [Segment]) {
        self.initBytes = initBytes
        self.segmentDurationMilliseconds = segmentDurationMilliseconds
        self.firstSegments = firstSegments
    }

    /// The hint for a media playlist. `size` gives a file's byte count by its URI as the playlist writes it, or nil
    /// when it is missing (then there is no hint: a hint must never under-count). Pure: the caller does the I/O.
    public init?(mediaPlaylist text: String, window: Int = Self.windowMilliseconds, size: (String) -> Int?) {
        var target: Int?
        var initURI: String?
        var pendingDuration: Int?
        var segments: [Segment] = []
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingSpaces
            if let value = line.value(after: "#EXT-X-TARGETDURATION:") {
                target = Int(value).map { $0 * 1000 }
            } else if let value = line.value(after: "#EXT-X-MAP:") {
                initURI = Self.attribute("URI", in: value)
            } else if let value = line.value(after: "#EXTINF:") {
                let number = value.prefix { $0 != "," }
                guard let seconds = Double(number), seconds >= 0 else { return nil }
                pendingDuration = Int((seconds * 1000).rounded())
            } else if !line.isEmpty, !line.hasPrefix("#"), let duration = pendingDuration {
                pendingDuration = nil
                if segments.reduce(0, { $0 + $1.durationMilliseconds }) >= window { break }
                guard let bytes = size(String(line)) else { return nil }
                segments.append(Segment(durationMilliseconds: duration, bytes: bytes))
            }
        }
        guard let target, let initURI, let initBytes = size(initURI), !segments.isEmpty else { return nil }
        self.init(initBytes: initBytes, segmentDurationMilliseconds: target, firstSegments: segments)
    }

    /// The bytes a client fetches to buffer the window: the init segment and the first segments.
    public var windowBytes: Int { initBytes + firstSegments.reduce(0) { $0 + $1.bytes } }

    /// A quoted attribute's value in an attribute list (`URI="init.mp4",BYTERANGE=...`).
    private static func attribute(_ name: String, in list: Substring) -> String? {
        for item in list.split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces == name else { continue }
            let value = pair[1].trimmingSpaces
            guard value.count >= 2, value.first == "\"", value.last == "\"" else { return nil }
            return String(value.dropFirst().dropLast())
        }
        return nil
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return text
    }

    fileprivate func value(after prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}
