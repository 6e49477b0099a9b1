/// What one conversion produced, for the CLI's summary and the worker's catalog row.
public struct ChatImageResult: Codable, Sendable, Equatable {
    public var source: String
    public var output: String
    public var sourceFormat: String
    public var sourceWidth: Int
    public var sourceHeight: Int
    public var orientation: Int
    public var width: Int
    public var height: Int
    public var hasAlpha: Bool
    public var bytes: Int
    public var quality: ImageQuality

    enum CodingKeys: String, CodingKey {
        case source, output, orientation, width, height, bytes, quality
        case sourceFormat = "source_format"
        case sourceWidth = "source_width"
        case sourceHeight = "source_height"
        case hasAlpha = "has_alpha"
    }
}
