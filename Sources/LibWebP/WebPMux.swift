internal import CWebP

/// Owns one `WebPMux`: used only to attach an ICC profile to an encoded image (no EXIF or XMP is ever set).
final class WebPMux {
    let pointer: OpaquePointer

    init() throws(WebPError) {
        guard let pointer = CWebP_MuxNew() else {
            throw WebPError(function: "WebPMuxNew", message: "allocation failed")
        }
        self.pointer = pointer
    }

    deinit { WebPMuxDelete(pointer) }

    /// Returns `image` with an ICCP chunk holding `profile` (and the VP8X header that a chunk requires).
    static func attach(iccProfile profile: [UInt8], to image: [UInt8]) throws(WebPError) -> [UInt8] {
        let mux = try WebPMux()
        let status: WebPMuxError = image.withUnsafeBufferPointer { imageBytes in
            profile.withUnsafeBufferPointer { profileBytes in
                var bitstream = WebPData(bytes: imageBytes.baseAddress, size: imageBytes.count)
                var icc = WebPData(bytes: profileBytes.baseAddress, size: profileBytes.count)
                let set = WebPMuxSetImage(mux.pointer, &bitstream, 1)
                guard set == WEBP_MUX_OK else { return set }
                return WebPMuxSetChunk(mux.pointer, "ICCP", &icc, 1)
            }
        }
        guard status == WEBP_MUX_OK else {
            throw WebPError(function: "WebPMuxSetChunk", message: "mux error \(status.rawValue)")
        }
        var output = WebPData(bytes: nil, size: 0)
        let assembled = WebPMuxAssemble(mux.pointer, &output)
        defer { WebPDataClear(&output) }
        guard assembled == WEBP_MUX_OK, let bytes = output.bytes else {
            throw WebPError(function: "WebPMuxAssemble", message: "mux error \(assembled.rawValue)")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: output.size))
    }
}
