/// What one conversion produced, for the CLI's summary and the worker's catalog row.
package struct ChatImageResult: Codable, Sendable, Equatable {
    package var source: String
    package var output: String
    package var sourceFormat: String
    package var sourceWidth: Int
    package var sourceHeight: Int
    package var orientation: Int
    package var width: Int
    package var height: Int
    package var hasAlpha: Bool
    package var bytes: Int
    package var quality: ImageQuality

    enum CodingKeys: String, CodingKey {
        case source, output, orientation, width, height, bytes, quality
        case sourceFormat = "source_format"
        case sourceWidth = "source_width"
        case sourceHeight = "source_height"
        case hasAlpha = "has_alpha"
    }
}
