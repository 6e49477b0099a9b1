/// The design's three chat-image presets.
public enum ImageQuality: String, Codable, CodingKeyRepresentable, Sendable, CaseIterable {
    case low, medium, high
}
