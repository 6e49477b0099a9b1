internal import Ingest
internal import LibHeif
internal import LibPNG
internal import LibTurboJPEG
internal import MediaModel

/// Full decode of an admitted image in stored orientation, with the orientation still to apply. JPEG goes through
/// libjpeg-turbo (CMYK/YCCK included), HEIF through libheif, PNG through libpng, the rest (GIF, WebP, BMP, TIFF)
/// through libav: the common chat images never load libav.
///
/// A YCbCr JPEG that will be resized comes out planar: its YCbCr is resized as it is and handed to the WebP encoder,
/// which is YCbCr too, with no RGB conversion on the way (a third less CPU on phone photos). An opaque 8-bit HEIF
/// that will be resized comes out as RGB planes, libheif's cheapest output. A picture kept at its size comes out as
/// RGBA, so the encoder gets the pixels cwebp would give it.
enum PictureDecoding {
    /// `atLeast` is the stored-orientation size the picture will be resized to; decoders that can scale for free
    /// (JPEG's IDCT) stop there instead of at full size.
    static func decode(
        _ image: AdmittedImage, atLeast minimum: (width: Int, height: Int)
    ) throws(Rejection) -> (picture: DecodedImage, orientation: Int) {
        let resizes = minimum != (image.header.width, image.header.height)
        switch image.upload.format {
        case .jpeg: return (try decodeJPEG(image, atLeast: minimum, planar: resizes), image.header.orientation)
        // libheif applies the container's irot/imir, the orientation that counts for HEIF; the EXIF copy is ignored.
        case .heif: return (try decodeHEIF(image, planar: resizes), 1)
        case .png: return (.rgba(try decodePNG(image)), image.header.orientation)
        default: return (.rgba(try image.decodeWithLibAV()), image.header.orientation)
        }
    }

    private static func decodeJPEG(
        _ image: AdmittedImage, atLeast minimum: (width: Int, height: Int), planar: Bool
    ) throws(Rejection) -> DecodedImage {
        do {
            let decompressor = try JPEGDecompressor()
            let header = image.header
            if header.isCMYK {
                let decoded = try decompressor.decode(image.bytes, as: .cmyk, atLeast: minimum)
                return .rgba(
                    DecodedPicture(
                        width: decoded.width, height: decoded.height,
                        rgba: CMYKConversion.rgba(fromCMYK: decoded.pixels, inverted: header.hasAdobeMarker),
                        hasAlphaChannel: false, iccProfile: nil
                    ))
            }
            if planar, let planes = try decompressor.decodePlanes(image.bytes, atLeast: minimum) {
                // JFIF YCbCr is full range.
                return .planar(
                    PlanarPicture(
                        width: planes.width, height: planes.height, planes: [planes.luma, planes.cb, planes.cr],
                        strides: [planes.lumaStride, planes.chromaStride, planes.chromaStride],
                        chromaShift: planes.chromaShift,
                        isFullRange: true, iccProfile: header.iccProfile
                    ))
            }
            let decoded = try decompressor.decode(image.bytes, as: .rgba, atLeast: minimum)
            return .rgba(
                DecodedPicture(
                    width: decoded.width, height: decoded.height, rgba: decoded.pixels,
                    hasAlphaChannel: false, iccProfile: header.iccProfile))
        } catch {
            let reason: RejectionReason =
                error.isWarning && error.message.contains("Premature end") ? .truncated : .decodeError
            throw Rejection(reason, "the JPEG does not decode (\(error.function): \(error.message))", path: image.path)
        }
    }

    private static func decodePNG(_ image: AdmittedImage) throws(Rejection) -> DecodedPicture {
        let picture: PNGDecoder.Picture
        do {
            picture = try PNGDecoder.decode(image.bytes, maximumSide: image.limits.maxSide)
        } catch {
            let reason: RejectionReason =
                error.message.contains("ends early") || error.message.contains("Not enough image data")
                ? .truncated : .decodeError
            throw Rejection(reason, "the PNG does not decode (\(error.function): \(error.message))", path: image.path)
        }
        let header = image.header
        guard picture.width == header.width, picture.height == header.height else {
            throw Rejection(
                .decodeError,
                "the header says \(header.width)x\(header.height) but the picture decodes to \(picture.width)x\(picture.height)",
                path: image.path)
        }
        return DecodedPicture(
            width: picture.width, height: picture.height, rgba: picture.rgba,
            hasAlphaChannel: header.hasAlpha || picture.hasAlphaChannel, iccProfile: picture.iccProfile)
    }

    private static func decodeHEIF(_ image: AdmittedImage, planar: Bool) throws(Rejection) -> DecodedImage {
        do {
            let context = try HeifContext(reading: image.bytes, maximumSide: image.limits.maxSide)
            let handle = try context.primaryImage()
            guard handle.width * handle.height <= image.limits.maxPixels else {
                throw Rejection(
                    .pixelCountExceedsLimit,
                    "the picture is \(handle.width)x\(handle.height) = \(handle.width * handle.height) pixels; the limit is \(image.limits.maxPixels)",
                    path: image.path)
            }
            // A resized opaque 8-bit picture comes as RGB planes (libheif's cheapest output), resized as they are.
            if planar, !handle.hasAlpha, handle.bitDepths == (8, 8),
                let decoded = try handle.decodePlanarRGB().rgbPlanes()
            {
                return .planarRGB(
                    PlanarRGBPicture(
                        width: decoded.width, height: decoded.height, planes: decoded.planes,
                        strides: decoded.strides, iccProfile: handle.iccProfile))
            }
            let decoded = try handle.decode()
            return .rgba(
                DecodedPicture(
                    width: decoded.width, height: decoded.height, rgba: try decoded.rgba(),
                    hasAlphaChannel: decoded.hasAlpha, iccProfile: handle.iccProfile))
        } catch let error as HeifError {
            throw Rejection(
                .decodeError, "the HEIF picture does not decode (\(error.function): \(error.message))", path: image.path
            )
        } catch let rejection as Rejection {
            throw rejection
        } catch {
            throw Rejection(.decodeError, "the HEIF picture does not decode (\(error))", path: image.path)
        }
    }
}
