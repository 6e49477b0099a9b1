package import MediaModel

/// `Presets/images.json`: per-quality longest side and libwebp quality, plus the encoder method.
/// Read it with `PresetLoader`.
package struct ImagePresets: PresetFile, Equatable {
    package struct Preset: Codable, Sendable, Equatable {
        package var maxSide: Int
        package var quality: Int

        package init(maxSide: Int, quality: Int) {
            self.maxSide = maxSide
            self.quality = quality
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case maxSide = "max_side"
            case quality
        }
    }

    /// libwebp method 0–6: the speed/size trade-off.
    package var method: Int
    package var presets: [ImageQuality: Preset]

    package init(method: Int, presets: [ImageQuality: Preset]) {
        self.method = method
        self.presets = presets
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case method, presets }

    package static var fileName: String { "images.json" }

    /// The design: 1024 px for low and medium, 2048 px for high; quality 0.3 / 0.6 / 0.8.
    package static let `default` = ImagePresets(
        method: 4,
        presets: [
            .low: Preset(maxSide: 1024, quality: 30),
            .medium: Preset(maxSide: 1024, quality: 60),
            .high: Preset(maxSide: 2048, quality: 80),
        ])

    package func preset(_ quality: ImageQuality) -> Preset { presets[quality] ?? Self.default.presets[quality]! }

    package func validate(_ check: inout PresetCheck) {
        check.within(method, 0...6, at: "method")
        for quality in ImageQuality.allCases {
            guard let preset = presets[quality] else { continue }
            check.positive(preset.maxSide, at: "presets.\(quality.rawValue).max_side")
            check.within(preset.quality, 0...100, at: "presets.\(quality.rawValue).quality")
        }
    }
}
