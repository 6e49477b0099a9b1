/// Operators write only the limits they change: a missing key keeps the default, an unknown key is an error
/// (a typo such as `max_byte` must not silently leave the default in force), and values must be positive.
extension AdmissionLimits {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        try Self.refuseUnknownKeys(in: container, allowed: ["video", "image"])
        let video = try container.decodeIfPresent(Video.self, forKey: AnyKey("video")) ?? Self.default.video
        let image = try container.decodeIfPresent(Image.self, forKey: AnyKey("image")) ?? Self.default.image
        self.init(video: video, image: image)
    }

    static func refuseUnknownKeys(in container: KeyedDecodingContainer<AnyKey>, allowed: Set<String>) throws {
        for key in container.allKeys where !allowed.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "unknown key \"\(key.stringValue)\"; expected one of \(allowed.sorted().joined(separator: ", "))"
            )
        }
    }

    static func positive<T: Comparable & Decodable & Numeric>(
        _ container: KeyedDecodingContainer<AnyKey>, _ key: String, default value: T
    ) throws -> T {
        guard let decoded = try container.decodeIfPresent(T.self, forKey: AnyKey(key)) else { return value }
        guard decoded > 0 else {
            throw DecodingError.dataCorruptedError(forKey: AnyKey(key), in: container, debugDescription: "\(key) must be positive, got \(decoded)")
        }
        return decoded
    }
}

extension AdmissionLimits.Video {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let d = AdmissionLimits.default.video
        try AdmissionLimits.refuseUnknownKeys(in: c, allowed: Set(CodingKeys.allCases.map(\.stringValue)))
        self.init(
            maxBytes: try AdmissionLimits.positive(c, "max_bytes", default: d.maxBytes),
            maxDurationSeconds: try AdmissionLimits.positive(c, "max_duration_seconds", default: d.maxDurationSeconds),
            durationToleranceSeconds: try c.decodeIfPresent(Double.self, forKey: AnyKey("duration_tolerance_seconds")) ?? d.durationToleranceSeconds,
            minDurationSeconds: try c.decodeIfPresent(Double.self, forKey: AnyKey("min_duration_seconds")) ?? d.minDurationSeconds,
            maxFrameRate: try AdmissionLimits.positive(c, "max_frame_rate", default: d.maxFrameRate),
            maxSide: try AdmissionLimits.positive(c, "max_side", default: d.maxSide),
            maxPixels: try AdmissionLimits.positive(c, "max_pixels", default: d.maxPixels),
            maxStreams: try AdmissionLimits.positive(c, "max_streams", default: d.maxStreams),
            containers: try c.decodeIfPresent([String].self, forKey: AnyKey("containers")) ?? d.containers,
            codecs: try c.decodeIfPresent([String].self, forKey: AnyKey("codecs")) ?? d.codecs
        )
    }
}

extension AdmissionLimits.Image {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let d = AdmissionLimits.default.image
        try AdmissionLimits.refuseUnknownKeys(in: c, allowed: Set(CodingKeys.allCases.map(\.stringValue)))
        self.init(
            maxBytes: try AdmissionLimits.positive(c, "max_bytes", default: d.maxBytes),
            maxSide: try AdmissionLimits.positive(c, "max_side", default: d.maxSide),
            maxPixels: try AdmissionLimits.positive(c, "max_pixels", default: d.maxPixels),
            formats: try c.decodeIfPresent([String].self, forKey: AnyKey("formats")) ?? d.formats
        )
    }
}

/// A coding key for any string, so decoders can list the keys a file actually holds.
struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
