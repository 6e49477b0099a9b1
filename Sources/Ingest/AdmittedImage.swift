internal import LibAV
package import MediaModel

/// An image upload that passed every header check and is still open, so the converter decodes the very bytes
/// that were checked. Its decode failures are reported with the same reason codes as admission's.
package final class AdmittedImage: Sendable {
    package let upload: AdmittedUpload
    /// The whole file, read once through the checked descriptor.
    package let bytes: [UInt8]
    let file: UploadFile
    package let limits: AdmissionLimits.Image

    init(upload: AdmittedUpload, file: UploadFile, limits: AdmissionLimits.Image) throws(Rejection) {
        self.upload = upload
        self.file = file
        self.limits = limits
        self.bytes = try file.read(count: Int(file.size))
    }

    package var path: String { file.path }
    package var header: ImageHeader { upload.imageHeader! }

    /// Decodes the first picture with libav's hardened opening (whitelisted demuxer and decoders, `max_pixels`)
    /// into tightly packed RGBA. For PNG, GIF, WebP, BMP and TIFF.
    package func decodeWithLibAV() throws(Rejection) -> DecodedPicture {
        guard let demuxer = upload.format.demuxer else {
            throw Rejection(.unsupportedFormat, "\(upload.format.name) is not decoded with libav", path: path)
        }
        let policy = InputPolicy(
            format: demuxer, formatWhitelist: [demuxer], codecWhitelist: AdmissionPolicy.imageCodecs,
            maxStreams: 1, maxPixels: limits.maxPixels)
        do {
            let input = try InputContext(path: file.libavPath, policy: policy)
            guard
                let frame = try input.decodeFirstPicture(
                    maxPixels: limits.maxPixels, codecWhitelist: AdmissionPolicy.imageCodecs)
            else {
                throw Rejection(.decodeError, "the picture produced no frame", path: path)
            }
            guard frame.width == header.width, frame.height == header.height else {
                throw Rejection(
                    .decodeError,
                    "the header says \(header.width)x\(header.height) but the picture decodes to \(frame.width)x\(frame.height)",
                    path: path)
            }
            return DecodedPicture(
                width: frame.width, height: frame.height, rgba: try frame.packedRGBA(),
                hasAlphaChannel: header.hasAlpha || frame.pixelFormat.hasAlpha, iccProfile: frame.iccProfile
            )
        } catch let error as AVError {
            throw Rejection(
                .decodeError, "the picture does not decode (\(error.function): \(error.message))", path: path)
        } catch let rejection as Rejection {
            throw rejection
        } catch {
            throw Rejection(.decodeError, "the picture does not decode (\(error))", path: path)
        }
    }
}

extension AdmissionPolicy {
    /// Admission for the image converter: every check but the trial decode, which the full decode replaces.
    package func admitImage(path: String) throws(Rejection) -> AdmittedImage {
        try admitImage(try open(path: path))
    }

    /// Admission for the image converter of an upload already opened and sniffed.
    package func admitImage(_ sniffed: SniffedUpload) throws(Rejection) -> AdmittedImage {
        guard !sniffed.format.isVideo else {
            throw Rejection(
                .unsupportedFormat, "\(sniffed.format.name) is a video, not a chat image", path: sniffed.path)
        }
        let upload = try inspect(sniffed, enforcing: true, verifyingImageDecode: false)
        return try AdmittedImage(upload: upload, file: sniffed.file, limits: limits.image)
    }
}
