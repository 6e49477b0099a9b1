internal import LibAV

/// A rung's scaler, shared by the rung's renditions in every codec: a source picture is scaled once per rung.
/// `@unchecked Sendable`: one task of `LadderSession.emit` per rung scales; its renditions read after `emit` waits.
final class RungScaler: @unchecked Sendable {
    let width: Int
    let height: Int
    /// yuv420p for the SDR renditions; yuv420p10 for an HDR rendition's.
    let format: PixelFormat
    /// Lanczos for a ladder's rungs; area averaging for the provisional rung (LadderSession's `provisional`).
    let filter: Scaler.Filter
    private var scaler: Scaler?
    private var scalerInput: (Int, Int, PixelFormat)?
    /// The last picture scaled and the number of the source picture it came from. The session emits one source
    /// picture for several slots when it duplicates for a gap, and the poster asks again for the slot just encoded:
    /// both reuse this instead of scaling again.
    private(set) var lastScaled: (source: Int64, frame: Frame)?

    init(width: Int, height: Int, format: PixelFormat = .yuv420p, filter: Scaler.Filter = .lanczos) {
        self.width = width
        self.height = height
        self.format = format
        self.filter = filter
    }

    /// Scales `source` (upright, any format) to this rung, reusing the last result when it is the same picture. A
    /// picture already at the rung's size and format is the rung's picture as it is (a reference): through swscale it
    /// was a copy into new pages for every picture (3 MB each at 1080x1920), which the ffmpeg CLI's scale filter
    /// passes through.
    func picture(from source: SourcePicture) throws(AVError) -> Frame {
        if let lastScaled, lastScaled.source == source.number { return lastScaled.frame }
        let frame = source.frame
        if frame.width == width, frame.height == height, frame.pixelFormat == format {
            let same = try frame.makeReference()
            lastScaled = (source.number, same)
            return same
        }
        let input = (frame.width, frame.height, frame.pixelFormat)
        if scaler == nil || scalerInput! != input {
            scaler = try Scaler(
                inputWidth: input.0, inputHeight: input.1, inputFormat: input.2,
                outputWidth: width, outputHeight: height, outputFormat: format, filter: filter)
            scalerInput = input
        }
        let scaled = try scaler!.scale(frame)
        scaled.colorDescription = frame.colorDescription
        lastScaled = (source.number, scaled)
        return scaled
    }
}
