internal import FileSystem
internal import Foundation
package import Ingest
internal import LibAV
internal import LibWebP
package import MediaModel

/// Any admitted image → an upright, resized, metadata-free lossy WebP. Output is always re-encoded from decoded
/// pixels, so nothing from the source file (EXIF, GPS, XMP, appended data) can reach it. The one exception is
/// deliberate: a non-sRGB ICC profile is carried over so wide-gamut colours stay right.
package struct ChatImageConverter: Sendable {
    package var policy: AdmissionPolicy
    package var presets: ImagePresets
    /// Lets libwebp split its analysis pass (and an alpha plane's encode) onto a second thread. The same bytes come
    /// out; a worker running fewer jobs than it has cores finishes each photo sooner with it.
    package var encoderThreads: Bool

    package init(
        policy: AdmissionPolicy = AdmissionPolicy(), presets: ImagePresets = .default, encoderThreads: Bool = false
    ) {
        self.policy = policy
        self.presets = presets
        self.encoderThreads = encoderThreads
    }

    /// Converts `source` and returns the WebP bytes with a description of them.
    /// - Throws: `.rejected` with admission's reason codes, or `.failed` with `encode_failed` when libwebp refuses.
    package func convert(
        _ source: String, quality: ImageQuality
    ) throws(ProcessingError) -> (webp: [UInt8], result: ChatImageResult) {
        let upload: SniffedUpload
        do { upload = try policy.open(path: source) } catch { throw .rejected(error) }
        return try convert(upload, quality: quality)
    }

    /// Converts an upload already opened and sniffed (the worker's job sniffs once to pick the pipeline).
    package func convert(
        _ upload: SniffedUpload, quality: ImageQuality
    ) throws(ProcessingError) -> (webp: [UInt8], result: ChatImageResult) {
        let source = upload.path
        let prepared: PreparedPicture
        do { prepared = try prepare(upload, quality: quality) } catch { throw .rejected(error) }
        let webp: [UInt8]
        do {
            let webpPicture =
                switch prepared.pixels {
                case let .rgba(pixels, hasAlpha):
                    try WebPPicture(
                        rgba: pixels, width: prepared.width, height: prepared.height, stride: prepared.width * 4,
                        hasAlpha: hasAlpha)
                case let .yuv420(planes):
                    try WebPPicture(yuv420: planes, width: prepared.width, height: prepared.height)
                }
            let settings = WebPEncoderSettings(
                quality: Float(presets.preset(quality).quality), method: presets.method,
                threads: encoderThreads)
            webp = try WebPEncoder(settings: settings).encode(webpPicture, iccProfile: prepared.iccProfile)
        } catch {
            throw .failed(
                ProcessingFailure(
                    .encodeFailed, "WebP encoding failed (\(error.function): \(error.message))", path: source))
        }
        var described = prepared.result
        described.bytes = webp.count
        return (webp, described)
    }

    /// An upright, resized picture ready for the encoder.
    private struct PreparedPicture {
        enum Pixels {
            /// Packed RGBA; without alpha the encoder ignores the fourth byte.
            case rgba([UInt8], hasAlpha: Bool)
            /// Limited-range BT.601 Y, U and V planes, 4:2:0, tightly packed.
            case yuv420([[UInt8]])
        }

        var pixels: Pixels
        var width: Int
        var height: Int
        var iccProfile: [UInt8]?
        var result: ChatImageResult
    }

    /// Admits, decodes, resizes and orients the picture: everything that can only fail because of the upload.
    private func prepare(_ upload: SniffedUpload, quality: ImageQuality) throws(Rejection) -> PreparedPicture {
        let source = upload.path
        let image = try policy.admitImage(upload)
        let preset = presets.preset(quality)
        // Plan the size from the header, so the decoder can already scale towards it.
        let header = image.header
        let headerSwaps = image.upload.format != .heif && Orientation.swapsSides(header.orientation)
        let planned = TargetSize.fitting(
            width: headerSwaps ? header.height : header.width,
            height: headerSwaps ? header.width : header.height, maxSide: preset.maxSide)
        let (picture, orientation) = try PictureDecoding.decode(
            image, atLeast: headerSwaps ? (planned.height, planned.width) : (planned.width, planned.height)
        )
        // JPEG may arrive pre-scaled, so the plan from its header stands; HEIF arrives already rotated by libheif,
        // so its size comes from the decoded picture.
        let swaps = Orientation.swapsSides(orientation)
        let upright =
            image.upload.format == .heif
            ? TargetSize.fitting(width: picture.width, height: picture.height, maxSide: preset.maxSide)
            : planned
        let stored = swaps ? (upright.height, upright.width) : (upright.width, upright.height)
        let pixels: PreparedPicture.Pixels
        let iccProfile: [UInt8]?
        switch picture {
        case let .planar(planar):
            pixels = .yuv420(try resizeAndOrient(planar, to: stored, orientation: orientation, source: source))
            iccProfile = planar.iccProfile
        case let .planarRGB(planar):
            let resized: [UInt8]
            do {
                resized = try Scaler.resizePlanarRGB(
                    planar.planes, strides: planar.strides, width: planar.width, height: planar.height,
                    toWidth: stored.0, toHeight: stored.1)
            } catch {
                throw Rejection(.decodeError, "resizing failed (\(error.function): \(error.message))", path: source)
            }
            pixels = .rgba(
                Orientation.apply(orientation, to: resized, width: stored.0, height: stored.1).pixels, hasAlpha: false)
            iccProfile = planar.iccProfile
        case let .rgba(decoded):
            let (oriented, hasAlpha) = try resizeAndOrient(
                decoded, to: stored, orientation: orientation, source: source)
            pixels = .rgba(oriented, hasAlpha: hasAlpha)
            iccProfile = decoded.iccProfile
        }
        let width = swaps ? stored.1 : stored.0, height = swaps ? stored.0 : stored.1
        var hasAlpha = false
        if case let .rgba(_, alpha) = pixels { hasAlpha = alpha }
        let result = ChatImageResult(
            source: source, output: "", sourceFormat: image.upload.format.name, sourceWidth: picture.width,
            sourceHeight: picture.height, orientation: orientation, width: width, height: height,
            hasAlpha: hasAlpha, bytes: 0, quality: quality
        )
        return PreparedPicture(
            pixels: pixels, width: width, height: height, iccProfile: ColorProfile.profileToKeep(iccProfile),
            result: result)
    }

    /// Planar YCbCr: one swscale pass to the stored-orientation size in limited-range 4:2:0, then each plane turned.
    private func resizeAndOrient(
        _ picture: PlanarPicture, to stored: (Int, Int), orientation: Int, source: String
    ) throws(Rejection) -> [[UInt8]] {
        let planes: [[UInt8]]
        do {
            planes = try Scaler.resizeYUV(
                picture.planes, strides: picture.strides, width: picture.width, height: picture.height,
                chromaShift: picture.chromaShift, isFullRange: picture.isFullRange,
                toWidth: stored.0, toHeight: stored.1)
        } catch {
            throw Rejection(.decodeError, "resizing failed (\(error.function): \(error.message))", path: source)
        }
        let chroma = ((stored.0 + 1) / 2, (stored.1 + 1) / 2)
        return [
            Orientation.apply(orientation, toPlane: planes[0], width: stored.0, height: stored.1),
            Orientation.apply(orientation, toPlane: planes[1], width: chroma.0, height: chroma.1),
            Orientation.apply(orientation, toPlane: planes[2], width: chroma.0, height: chroma.1),
        ]
    }

    /// Packed RGBA: resized on planar GBR(A) (premultiplied when translucent), then turned. Returns whether alpha stays.
    private func resizeAndOrient(
        _ picture: DecodedPicture, to stored: (Int, Int), orientation: Int, source: String
    ) throws(Rejection)
        -> (pixels: [UInt8], hasAlpha: Bool)
    {
        var pixels = picture.rgba
        let keepsAlpha = picture.hasAlphaChannel && !AlphaPixels.isOpaque(pixels)
        if stored != (picture.width, picture.height) {
            if keepsAlpha { AlphaPixels.premultiply(&pixels) }
            do {
                pixels = try Scaler.resizeRGBA(
                    pixels, width: picture.width, height: picture.height, toWidth: stored.0, toHeight: stored.1,
                    hasAlpha: keepsAlpha)
            } catch {
                throw Rejection(.decodeError, "resizing failed (\(error.function): \(error.message))", path: source)
            }
            if keepsAlpha { AlphaPixels.unpremultiply(&pixels) }
        }
        return (Orientation.apply(orientation, to: pixels, width: stored.0, height: stored.1).pixels, keepsAlpha)
    }

    /// Converts `source` into the file `output`, written beside it under a temporary name, synced and renamed,
    /// so a reader never sees half a file and a failure leaves nothing behind.
    package func convert(
        _ source: String, to output: String, quality: ImageQuality
    ) throws(ProcessingError) -> ChatImageResult {
        let upload: SniffedUpload
        do { upload = try policy.open(path: source) } catch { throw .rejected(error) }
        return try convert(upload, to: output, quality: quality)
    }

    /// Converts an upload already opened and sniffed into the file `output`, as `convert(_:to:quality:)` does.
    package func convert(
        _ upload: SniffedUpload, to output: String, quality: ImageQuality
    ) throws(ProcessingError) -> ChatImageResult {
        let source = upload.path
        var (webp, result) = try convert(upload, quality: quality)
        do {
            try AtomicFile.write(webp, to: output)
        } catch {
            throw .failed(
                ProcessingFailure(
                    error.isDiskFull ? .diskFull : .outputFailed, "cannot write \(output): \(error)",
                    path: source, retryable: error.isTransient))
        }
        result.output = output
        return result
    }
}
