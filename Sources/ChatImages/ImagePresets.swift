internal import Foundation

/// `Presets/images.json`: per-quality longest side and libwebp quality, plus the encoder method.
public struct ImagePresets: Codable, Sendable, Equatable {
    public struct Preset: Codable, Sendable, Equatable {
        public var maxSide: Int
        public var quality: Int

        public init(maxSide: Int, quality: Int) {
            self.maxSide = maxSide
            self.quality = quality
        }

        enum CodingKeys: String, CodingKey {
            case maxSide = "max_side"
            case quality
        }
    }

    /// libwebp method 0–6: the speed/size trade-off.
    public var method: Int
    public var presets: [ImageQuality: Preset]

    public init(method: Int, presets: [ImageQuality: Preset]) {
        self.method = method
        self.presets = presets
    }

    /// The design: 1024 px for low and medium, 2048 px for high; quality 0.3 / 0.6 / 0.8.
    public static let `default` = ImagePresets(method: 4, presets: [
        .low: Preset(maxSide: 1024, quality: 30),
        .medium: Preset(maxSide: 1024, quality: 60),
        .high: Preset(maxSide: 2048, quality: 80),
    ])

    public func preset(_ quality: ImageQuality) -> Preset { presets[quality] ?? Self.default.presets[quality]! }

    enum CodingKeys: String, CodingKey { case method, presets }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decodeIfPresent(Int.self, forKey: .method) ?? Self.default.method
        let named = try container.decodeIfPresent([String: Preset].self, forKey: .presets) ?? [:]
        var presets = Self.default.presets
        for (name, preset) in named {
            guard let quality = ImageQuality(rawValue: name) else {
                throw DecodingError.dataCorruptedError(forKey: .presets, in: container, debugDescription: "unknown preset \"\(name)\" (expected low, medium or high)")
            }
            guard preset.maxSide > 0, (0...100).contains(preset.quality) else {
                throw DecodingError.dataCorruptedError(forKey: .presets, in: container, debugDescription: "preset \(name): max_side must be positive and quality 0...100")
            }
            presets[quality] = preset
        }
        guard (0...6).contains(method) else {
            throw DecodingError.dataCorruptedError(forKey: .method, in: container, debugDescription: "method must be 0...6, got \(method)")
        }
        self.presets = presets
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(method, forKey: .method)
        try container.encode(Dictionary(uniqueKeysWithValues: presets.map { ($0.key.rawValue, $0.value) }), forKey: .presets)
    }

    public static func load(from path: String) throws -> ImagePresets {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode(ImagePresets.self, from: data)
    }
}
