internal import FileSystem
internal import LibAV
internal import LibWebP
internal import MediaModel

/// Takes the storyboard's thumbnails from the pictures the ladder already decodes and scales (the poster rung's,
/// upright), then writes the sheet and its WebVTT file. The source is never opened a second time.
///
/// Thumbnail `i` is the picture on screen at i·interval: output slot ⌊i·interval·fps⌋, counted in integers so
/// 29.97 fps lands on the same slots as the plan's cues. When a clip turns out longer than its container said and
/// the thumbnails reach `StoryboardPlan.maxTiles`, every other one is dropped and the interval doubles, so the
/// sheet stays within its bounds whatever the header claimed. Only one thread calls it at a time.
/// `@unchecked Sendable`: only the poster rung's task of `LadderSession.emit` feeds it, one picture at a time.
final class StoryboardCollector: @unchecked Sendable {
    static let imageName = "storyboard.webp"
    static let vttName = "storyboard.vtt"

    private let frameRate: Rational
    private(set) var intervalSeconds: Int
    /// Packed RGBA, one array per thumbnail, in time order.
    private var tiles: [[UInt8]] = []
    /// The output slot each thumbnail was taken at, in the same order: what tests and logs check the timing by.
    private(set) var slots: [Int64] = []
    /// The size of the pictures handed in (the poster rung's) and the tile size the plan gives it.
    private var geometry: (width: Int, height: Int, tileWidth: Int, tileHeight: Int)?
    private var scaler: Scaler?

    /// `expectedDuration` is the container's claim (0 when unknown); it only sets the starting interval.
    init(expectedDuration: Double, frameRate: Rational) {
        self.frameRate = frameRate
        intervalSeconds = StoryboardPlan.interval(forDuration: expectedDuration)
    }

    var thumbnailCount: Int { tiles.count }

    /// Keeps `picture` (upright, any size and format) for every thumbnail whose time falls on output slot `slot`.
    /// Slots must come in increasing order.
    /// - Throws: `AVError` when swscale fails; `TranscodeError` when the picture size changes mid-clip (a Reel bug:
    ///   the poster rung's size is fixed).
    func consider(_ picture: Frame, slot: Int64) throws {
        var thumbnail: [UInt8]?
        while slotOfThumbnail(tiles.count) <= slot {
            if tiles.count == StoryboardPlan.maxTiles {
                tiles = stride(from: 0, to: tiles.count, by: 2).map { tiles[$0] }
                slots = stride(from: 0, to: slots.count, by: 2).map { slots[$0] }
                intervalSeconds *= 2
                continue
            }
            if thumbnail == nil { thumbnail = try makeThumbnail(picture) }
            tiles.append(thumbnail!)
            slots.append(slot)
        }
    }

    private func slotOfThumbnail(_ index: Int) -> Int64 {
        Int64(index) * Int64(intervalSeconds) * Int64(frameRate.numerator) / Int64(max(frameRate.denominator, 1))
    }

    private func makeThumbnail(_ picture: Frame) throws -> [UInt8] {
        if geometry == nil || geometry!.width != picture.width || geometry!.height != picture.height {
            // The poster rung's size never changes within a clip; a new size would misalign the sheet.
            guard geometry == nil else {
                throw TranscodeError(
                    .encodeFailed,
                    "the storyboard's pictures changed size to \(picture.width)x\(picture.height) "
                        + "(a Reel bug)", path: "", retryable: false)
            }
            let tile = StoryboardPlan.tileSize(width: picture.width, height: picture.height)
            geometry = (picture.width, picture.height, tile.width, tile.height)
            // Area averaging: a 720p picture shrinks 4.5× and Lanczos would ring on the checkerboards phones film.
            scaler = try Scaler(
                inputWidth: picture.width, inputHeight: picture.height, inputFormat: picture.pixelFormat,
                outputWidth: tile.width, outputHeight: tile.height, outputFormat: .rgba, filter: .area)
        }
        return try scaler!.scale(picture).packedRGBA()
    }

    /// Writes `storyboard.webp` and `storyboard.vtt` into `directory` for a clip of `durationSeconds` (the
    /// ladder's output length) and returns what was written, with paths relative to `directory`.
    /// - Throws: `TranscodeError` when no picture came in, the thumbnails disagree with the plan (a Reel bug) or
    ///   libwebp fails; `FileSystemError` when a file cannot be written.
    func write(into directory: String, durationSeconds: Double) throws -> Storyboard {
        guard let geometry else {
            throw TranscodeError(.encodeFailed, "no picture was decoded for the storyboard", path: "")
        }
        let plan = try StoryboardPlan(
            durationSeconds: durationSeconds, width: geometry.width, height: geometry.height,
            intervalSeconds: intervalSeconds)
        guard plan.count == tiles.count else {
            throw TranscodeError(
                .encodeFailed,
                "the storyboard has \(tiles.count) thumbnails but \(durationSeconds) s needs "
                    + "\(plan.count) (a Reel bug)", path: "", retryable: false)
        }
        let sheet = composeSheet(plan)
        let bytes: [UInt8]
        do {
            let image = try WebPPicture(
                rgba: sheet, width: plan.sheetWidth, height: plan.sheetHeight, stride: plan.sheetWidth * 4,
                hasAlpha: false)
            bytes = try WebPEncoder(settings: WebPEncoderSettings(quality: 70)).encode(image)
        } catch {
            throw TranscodeError(.encodeFailed, "storyboard: \(error)", path: "")
        }
        try AtomicFile.write(bytes, to: directory + "/" + Self.imageName, durable: false)
        try AtomicFile.write(
            Array(plan.webVTT(image: Self.imageName).utf8), to: directory + "/" + Self.vttName, durable: false)
        return Storyboard(
            vttPath: Self.vttName, imagePath: Self.imageName, intervalSeconds: plan.intervalSeconds,
            tileWidth: plan.tileWidth, tileHeight: plan.tileHeight, columns: plan.columns, count: plan.count)
    }

    /// The thumbnails on one opaque black RGBA sheet, at the plan's cue rectangles.
    private func composeSheet(_ plan: StoryboardPlan) -> [UInt8] {
        let rowBytes = plan.sheetWidth * 4
        var sheet = [UInt8](repeating: 0, count: rowBytes * plan.sheetHeight)
        for index in stride(from: 3, to: sheet.count, by: 4) { sheet[index] = 255 }
        for (tile, cue) in zip(tiles, plan.cues) {
            let tileRow = cue.width * 4
            for y in 0..<cue.height {
                let target = (cue.y + y) * rowBytes + cue.x * 4
                sheet.replaceSubrange(target..<target + tileRow, with: tile[y * tileRow..<(y + 1) * tileRow])
            }
        }
        return sheet
    }
}
