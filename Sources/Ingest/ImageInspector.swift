internal import LibAV
internal import MediaModel

/// Probes and verifies one image upload: header facts first, a real decode only once the size is known to be safe.
struct ImageInspector {
    let policy: AdmissionPolicy
    let file: UploadFile
    let format: SniffedFormat
    let enforcing: Bool
    /// False when the caller decodes the whole picture next and reports failures itself (the WebP converter).
    var verifyingDecode = true

    private var limits: AdmissionLimits.Image { policy.limits.image }

    private func reject(_ reason: RejectionReason, _ message: String) -> Rejection {
        Rejection(reason, message, path: file.path)
    }

    func run() throws(Rejection) -> AdmittedUpload {
        if enforcing && file.size > limits.maxBytes {
            throw reject(
                .tooLarge,
                "the image is \(Formatting.megabytes(file.size)); the limit is \(Formatting.megabytes(limits.maxBytes))"
            )
        }
        if enforcing && !limits.formats.contains(format.name) {
            throw reject(
                .unsupportedFormat,
                "\(format.name) images are not accepted (accepted: \(limits.formats.joined(separator: ", ")))")
        }
        // Probing without limits still never reads more than a hostile-sized image into memory.
        let bytes = try file.read(count: Int(min(file.size, max(limits.maxBytes, 200_000_000))))
        guard var header = ImageHeader.read(format, from: bytes) else {
            throw reject(.probeFailed, "the \(format.name) header is malformed")
        }
        if !header.isComplete && (enforcing || header.width == 0) {
            throw reject(.truncated, "the \(format.name) data ends before the image does (\(file.size) bytes)")
        }
        guard header.width > 0, header.height > 0 else {
            throw reject(.probeFailed, "the header declares an invalid size \(header.width)x\(header.height)")
        }
        // PNG, TIFF and HEIF sides are 32-bit: two of them can multiply past Int.max (a trap), so the count saturates.
        let (product, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        let pixels = overflow ? Int.max : product
        let isSafeToDecode = max(header.width, header.height) <= limits.maxSide && pixels <= limits.maxPixels
        if enforcing && pixels > limits.maxPixels {
            let count = overflow ? "more than \(Int.max)" : "\(pixels)"
            throw reject(
                .pixelCountExceedsLimit,
                "the header declares \(header.width)x\(header.height) = \(count) pixels; the limit is \(limits.maxPixels)"
            )
        }
        if enforcing && max(header.width, header.height) > limits.maxSide {
            throw reject(
                .dimensionsExceedLimit,
                "the header declares \(header.width)x\(header.height); the longest side may be at most \(limits.maxSide)"
            )
        }
        var pixelFormat: String? = nil
        if verifyingDecode, isSafeToDecode, let demuxer = format.demuxer {
            let decoded = try decodeFirstFrame(demuxer: demuxer)
            if decoded.width != header.width || decoded.height != header.height {
                throw reject(
                    .decodeError,
                    "the header says \(header.width)x\(header.height) but the picture decodes to \(decoded.width)x\(decoded.height)"
                )
            }
            pixelFormat = decoded.pixelFormat.name
            if format != .png && format != .gif && format != .webp { header.hasAlpha = decoded.pixelFormat.hasAlpha }
        }
        let image = MediaInfo.Image(
            format: format.name, width: header.width, height: header.height, orientation: header.orientation,
            hasAlpha: header.hasAlpha, frameCount: header.frameCount, pixelFormat: pixelFormat
        )
        let info = MediaInfo(
            path: file.path, kind: .image, container: format.name, fileSize: file.size, durationSeconds: nil,
            bitRate: nil,
            streamCount: 1, video: nil, audio: nil, image: image
        )
        return AdmittedUpload(info: info, format: format, imageHeader: header)
    }

    private func decodeFirstFrame(
        demuxer: String
    ) throws(Rejection) -> (width: Int, height: Int, pixelFormat: PixelFormat) {
        let inputPolicy = InputPolicy(
            format: demuxer, formatWhitelist: [demuxer], codecWhitelist: AdmissionPolicy.imageCodecs, maxStreams: 1,
            maxPixels: limits.maxPixels
        )
        do {
            let input = try InputContext(path: file.libavPath, policy: inputPolicy)
            guard
                let frame = try input.decodeFirstPicture(
                    maxPixels: limits.maxPixels, codecWhitelist: AdmissionPolicy.imageCodecs)
            else {
                throw reject(.decodeError, "the picture produced no frame")
            }
            return (frame.width, frame.height, frame.pixelFormat)
        } catch let error as AVError {
            throw reject(.decodeError, "the picture does not decode (\(error.function): \(error.message))")
        } catch let rejection as Rejection {
            throw rejection
        } catch {
            throw reject(.decodeError, "the picture does not decode (\(error))")
        }
    }
}
