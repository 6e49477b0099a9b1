internal import MediaModel

/// The storyboard's geometry and timing for one clip: the tile size, the grid and one cue per thumbnail.
/// Pure (no pixels, no files), so every rule is tested on numbers alone; `StoryboardCollector` fills it with pictures.
///
/// The rules (docs/hls.md, "Storyboards"):
/// - one thumbnail every `intervalSeconds` (1 s unless the clip is longer than `maxTiles` seconds); thumbnail `i`
///   stands for [i·interval, (i+1)·interval), the last one ends at the clip's end, so a clip of d seconds has ⌈d⌉;
/// - a tile fits a 160 × 320 box, keeping the picture's aspect ratio, never upscaling, both sides even (at least 2);
/// - up to 10 columns, left to right then top to bottom, so the sheet is at most 1600 × 3840 px, far inside
///   WebP's 16383 px limit.
struct StoryboardPlan: Equatable, Sendable {
    /// One thumbnail's time range (milliseconds, end exclusive) and place on the sheet.
    struct Cue: Equatable, Sendable {
        var startMilliseconds: Int
        var endMilliseconds: Int
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    static let maxTileWidth = 160
    static let maxTileHeight = 320
    static let maxColumns = 10
    /// 120 thumbnails keep a 2-minute clip at one per second and the sheet's decoded size under 25 MB.
    static let maxTiles = 120
    /// WebP's largest side.
    static let maxSheetSide = 16383

    let durationSeconds: Double
    let intervalSeconds: Int
    let tileWidth: Int
    let tileHeight: Int
    let count: Int
    let columns: Int

    var rows: Int { (count + columns - 1) / columns }
    var sheetWidth: Int { columns * tileWidth }
    var sheetHeight: Int { rows * tileHeight }

    /// The plan for a clip of `durationSeconds` whose upright pictures are `width` × `height`. `intervalSeconds`
    /// fixes the spacing (the collector's, once it has the pictures); nil picks it from the duration.
    /// - Throws: `TranscodeError` (`encode_failed`, not retryable) for a duration that is not positive and finite,
    ///   a picture without area, or an interval that needs more than `maxTiles` thumbnails.
    init(durationSeconds: Double, width: Int, height: Int, intervalSeconds: Int? = nil) throws(TranscodeError) {
        guard durationSeconds.isFinite, durationSeconds > 0 else {
            throw Self.failure("a storyboard needs a positive duration, got \(durationSeconds) s")
        }
        guard width > 0, height > 0 else { throw Self.failure("a storyboard needs a picture, got \(width)x\(height)") }
        let interval = intervalSeconds ?? Self.interval(forDuration: durationSeconds)
        guard interval > 0 else { throw Self.failure("the storyboard interval must be positive, got \(interval) s") }
        let count = Self.tileCount(durationSeconds: durationSeconds, intervalSeconds: interval)
        guard count <= Self.maxTiles else {
            throw Self.failure(
                "\(count) thumbnails at \(interval) s for \(durationSeconds) s; at most \(Self.maxTiles)")
        }
        self.durationSeconds = durationSeconds
        self.intervalSeconds = interval
        (tileWidth, tileHeight) = Self.tileSize(width: width, height: height)
        self.count = count
        columns = min(Self.maxColumns, count)
    }

    /// The smallest whole number of seconds that keeps a clip of this length within `maxTiles` thumbnails.
    static func interval(forDuration seconds: Double) -> Int {
        guard seconds.isFinite, seconds > Double(maxTiles) else { return 1 }
        return Int((seconds / Double(maxTiles)).rounded(.up))
    }

    /// Thumbnails start at 0, interval, 2·interval, … while that is before the end: ⌈duration / interval⌉, at least 1.
    static func tileCount(durationSeconds: Double, intervalSeconds: Int) -> Int {
        max(1, Int((durationSeconds / Double(intervalSeconds)).rounded(.up)))
    }

    /// The picture fitted into the tile box without upscaling, each side rounded down to an even number (at least 2).
    static func tileSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let scale = min(1, Double(maxTileWidth) / Double(width), Double(maxTileHeight) / Double(height))
        func even(_ side: Int) -> Int { max(2, Int(Double(side) * scale) / 2 * 2) }
        return (even(width), even(height))
    }

    /// The thumbnails' cues in time order. They are contiguous: each starts where the previous one ends, the first
    /// at 0 and the last at the clip's end (at least 1 ms after its start).
    var cues: [Cue] {
        let durationMilliseconds = Int((durationSeconds * 1000).rounded())
        let step = intervalSeconds * 1000
        return (0..<count).map { index in
            let start = index * step
            let end = index == count - 1 ? max(durationMilliseconds, start + 1) : start + step
            return Cue(
                startMilliseconds: start, endMilliseconds: end, x: index % columns * tileWidth,
                y: index / columns * tileHeight, width: tileWidth, height: tileHeight)
        }
    }

    private static func failure(_ message: String) -> TranscodeError {
        TranscodeError(.encodeFailed, message, path: "", retryable: false)
    }
}
