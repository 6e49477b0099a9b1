/// The design's three chat-image presets.
package enum ImageQuality: String, Codable, CodingKeyRepresentable, Sendable, CaseIterable {
    case low, medium, high
}
