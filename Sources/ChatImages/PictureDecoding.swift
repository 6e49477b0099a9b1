internal import Ingest
internal import LibHeif
internal import LibTurboJPEG
internal import MediaModel

/// Full decode of an admitted image to RGBA in stored orientation, with the orientation still to apply.
/// JPEG goes through libjpeg-turbo (CMYK/YCCK included), HEIF through libheif, the rest through libav.
enum PictureDecoding {
    /// `atLeast` is the stored-orientation size the picture will be resized to; decoders that can scale for free
    /// (JPEG's IDCT) stop there instead of at full size.
    static func decode(_ image: AdmittedImage, atLeast minimum: (width: Int, height: Int)) throws(Rejection) -> (picture: DecodedPicture, orientation: Int) {
        switch image.upload.format {
        case .jpeg: return (try decodeJPEG(image, atLeast: minimum), image.header.orientation)
        // libheif applies the container's irot/imir, the orientation that counts for HEIF; the EXIF copy is ignored.
        case .heif: return (try decodeHEIF(image), 1)
        default: return (try image.decodeWithLibAV(), image.header.orientation)
        }
    }

    private static func decodeJPEG(_ image: AdmittedImage, atLeast minimum: (width: Int, height: Int)) throws(Rejection) -> DecodedPicture {
        do {
            let decompressor = try JPEGDecompressor()
            let header = image.header
            if header.isCMYK {
                let decoded = try decompressor.decode(image.bytes, as: .cmyk, atLeast: minimum)
                return DecodedPicture(
                    width: decoded.width, height: decoded.height,
                    rgba: CMYKConversion.rgba(fromCMYK: decoded.pixels, inverted: header.hasAdobeMarker),
                    hasAlphaChannel: false, iccProfile: nil
                )
            }
            let decoded = try decompressor.decode(image.bytes, as: .rgba, atLeast: minimum)
            return DecodedPicture(width: decoded.width, height: decoded.height, rgba: decoded.pixels,
                                  hasAlphaChannel: false, iccProfile: header.iccProfile)
        } catch {
            let reason: RejectionReason = error.isWarning && error.message.contains("Premature end") ? .truncated : .decodeError
            throw Rejection(reason, "the JPEG does not decode (\(error.function): \(error.message))", path: image.path)
        }
    }

    private static func decodeHEIF(_ image: AdmittedImage) throws(Rejection) -> DecodedPicture {
        do {
            let context = try HeifContext(reading: image.bytes, maximumSide: image.limits.maxSide)
            let handle = try context.primaryImage()
            guard handle.width * handle.height <= image.limits.maxPixels else {
                throw Rejection(.pixelCountExceedsLimit, "the picture is \(handle.width)x\(handle.height) = \(handle.width * handle.height) pixels; the limit is \(image.limits.maxPixels)", path: image.path)
            }
            let decoded = try handle.decode()
            return DecodedPicture(width: decoded.width, height: decoded.height, rgba: try decoded.rgba(),
                                  hasAlphaChannel: decoded.hasAlpha, iccProfile: handle.iccProfile)
        } catch let error as HeifError {
            throw Rejection(.decodeError, "the HEIF picture does not decode (\(error.function): \(error.message))", path: image.path)
        } catch let rejection as Rejection {
            throw rejection
        } catch {
            throw Rejection(.decodeError, "the HEIF picture does not decode (\(error))", path: image.path)
        }
    }
}
