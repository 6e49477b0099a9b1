/// A video's storyboard as published: a WebP sprite sheet of thumbnails and the WebVTT file that maps each time range
/// to one tile (`storyboard.webp#xywh=x,y,w,h`). Players show the tile under the finger while scrubbing.
/// Paths are relative: to the ladder's output directory in a transcode summary, to the library in the catalog.
public struct Storyboard: Sendable, Equatable, Codable {
    public var vttPath: String
    public var imagePath: String
    /// Seconds between thumbnails: 1 for the product's clips, more only for long ones (docs/hls.md, "Storyboards").
    public var intervalSeconds: Int
    public var tileWidth: Int
    public var tileHeight: Int
    public var columns: Int
    /// Thumbnails (and cues), left to right, then top to bottom.
    public var count: Int

    public init(
        vttPath: String, imagePath: String, intervalSeconds: Int, tileWidth: Int, tileHeight: Int, columns: Int,
        count: Int
    ) {
        self.vttPath = vttPath
        self.imagePath = imagePath
        self.intervalSeconds = intervalSeconds
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.columns = columns
        self.count = count
    }

    /// Rows of the sheet: the last one may be part-filled.
    public var rows: Int { columns > 0 ? (count + columns - 1) / columns : 0 }

    /// The same storyboard with both paths under `prefix` (a summary's file names into library paths).
    public func prefixingPaths(with prefix: String) -> Storyboard {
        var copy = self
        copy.vttPath = prefix + vttPath
        copy.imagePath = prefix + imagePath
        return copy
    }

    enum CodingKeys: String, CodingKey {
        case columns, count
        case vttPath = "vtt"
        case imagePath = "image"
        case intervalSeconds = "interval_seconds"
        case tileWidth = "tile_width"
        case tileHeight = "tile_height"
    }
}
