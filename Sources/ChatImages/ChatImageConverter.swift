internal import FileSystem
internal import Foundation
public import Ingest
internal import LibAV
internal import LibWebP
public import MediaModel

/// Any admitted image → an upright, resized, metadata-free lossy WebP. Output is always re-encoded from decoded
/// pixels, so nothing from the source file (EXIF, GPS, XMP, appended data) can reach it. The one exception is
/// deliberate: a non-sRGB ICC profile is carried over so wide-gamut colours stay right.
public struct ChatImageConverter: Sendable {
    public var policy: AdmissionPolicy
    public var presets: ImagePresets

    public init(policy: AdmissionPolicy = AdmissionPolicy(), presets: ImagePresets = .default) {
        self.policy = policy
        self.presets = presets
    }

    /// Converts `source` and returns the WebP bytes with a description of them.
    /// - Throws: `.rejected` with admission's reason codes, or `.failed` with `encode_failed` when libwebp refuses.
    public func convert(_ source: String, quality: ImageQuality) throws(ProcessingError) -> (webp: [UInt8], result: ChatImageResult) {
        let prepared: (pixels: [UInt8], width: Int, height: Int, hasAlpha: Bool, iccProfile: [UInt8]?, result: ChatImageResult)
        do { prepared = try prepare(source, quality: quality) } catch { throw .rejected(error) }
        let (pixels, width, height, hasAlpha, iccProfile, result) = prepared
        let webp: [UInt8]
        do {
            let webpPicture = try WebPPicture(rgba: pixels, width: width, height: height, stride: width * 4, hasAlpha: hasAlpha)
            let settings = WebPEncoderSettings(quality: Float(presets.preset(quality).quality), method: presets.method)
            webp = try WebPEncoder(settings: settings).encode(webpPicture, iccProfile: iccProfile)
        } catch {
            throw .failed(ProcessingFailure(.encodeFailed, "WebP encoding failed (\(error.function): \(error.message))", path: source))
        }
        var described = result
        described.bytes = webp.count
        return (webp, described)
    }

    /// Admits, decodes, resizes and orients the picture: everything that can only fail because of the upload.
    private func prepare(_ source: String, quality: ImageQuality) throws(Rejection)
        -> (pixels: [UInt8], width: Int, height: Int, hasAlpha: Bool, iccProfile: [UInt8]?, result: ChatImageResult) {
        let image = try policy.admitImage(path: source)
        let preset = presets.preset(quality)
        // Plan the size from the header, so the decoder can already scale towards it.
        let header = image.header
        let headerSwaps = image.upload.format != .heif && Orientation.swapsSides(header.orientation)
        let planned = TargetSize.fitting(width: headerSwaps ? header.height : header.width,
                                         height: headerSwaps ? header.width : header.height, maxSide: preset.maxSide)
        let (picture, orientation) = try PictureDecoding.decode(
            image, atLeast: headerSwaps ? (planned.height, planned.width) : (planned.width, planned.height)
        )
        // JPEG may arrive pre-scaled, so the plan from its header stands; HEIF arrives already rotated by libheif,
        // so its size comes from the decoded picture.
        let swaps = Orientation.swapsSides(orientation)
        let upright = image.upload.format == .heif
            ? TargetSize.fitting(width: picture.width, height: picture.height, maxSide: preset.maxSide)
            : planned
        var pixels = picture.rgba
        let keepsAlpha = picture.hasAlphaChannel && !AlphaPixels.isOpaque(pixels)
        let stored = swaps ? (upright.height, upright.width) : (upright.width, upright.height)
        if stored != (picture.width, picture.height) {
            if keepsAlpha { AlphaPixels.premultiply(&pixels) }
            do {
                pixels = try Scaler.resizeRGBA(pixels, width: picture.width, height: picture.height, toWidth: stored.0, toHeight: stored.1, hasAlpha: keepsAlpha)
            } catch {
                throw Rejection(.decodeError, "resizing failed (\(error.function): \(error.message))", path: source)
            }
            if keepsAlpha { AlphaPixels.unpremultiply(&pixels) }
        }
        let oriented = Orientation.apply(orientation, to: pixels, width: stored.0, height: stored.1)
        let result = ChatImageResult(
            source: source, output: "", sourceFormat: image.upload.format.name, sourceWidth: picture.width,
            sourceHeight: picture.height, orientation: orientation, width: oriented.width, height: oriented.height,
            hasAlpha: keepsAlpha, bytes: 0, quality: quality
        )
        return (oriented.pixels, oriented.width, oriented.height, keepsAlpha, ColorProfile.profileToKeep(picture.iccProfile), result)
    }

    /// Converts `source` into the file `output`, written beside it under a temporary name, synced and renamed,
    /// so a reader never sees half a file and a failure leaves nothing behind.
    public func convert(_ source: String, to output: String, quality: ImageQuality) throws(ProcessingError) -> ChatImageResult {
        var (webp, result) = try convert(source, quality: quality)
        do {
            try AtomicFile.write(webp, to: output)
        } catch {
            throw .failed(ProcessingFailure(error.isDiskFull ? .diskFull : .outputFailed, "cannot write \(output): \(error)",
                                            path: source, retryable: error.isTransient))
        }
        result.output = output
        return result
    }
}
