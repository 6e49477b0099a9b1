internal import CHeif

/// Owns one `heif_image_handle`: a coded picture inside a context, not yet decoded.
package final class HeifImageHandle {
    let pointer: OpaquePointer
    /// Keeps the context (and the bytes it reads) alive as long as the handle.
    private let context: HeifContext

    init(_ pointer: OpaquePointer, context: HeifContext) {
        self.pointer = pointer
        self.context = context
    }

    deinit { heif_image_handle_release(pointer) }

    /// Size after the container's transformations (irot, imir, clap), which `decode` applies.
    package var width: Int { Int(heif_image_handle_get_width(pointer)) }
    package var height: Int { Int(heif_image_handle_get_height(pointer)) }
    package var hasAlpha: Bool { heif_image_handle_has_alpha_channel(pointer) != 0 }

    /// The embedded ICC profile, if the file carries one.
    package var iccProfile: [UInt8]? {
        let size = heif_image_handle_get_raw_color_profile_size(pointer)
        guard size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        let result = bytes.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(pointer, $0.baseAddress) }
        return result.code == heif_error_Ok ? bytes : nil
    }

    /// Bits per sample of the coded picture's luma and chroma.
    package var bitDepths: (luma: Int, chroma: Int) {
        (
            Int(heif_image_handle_get_luma_bits_per_pixel(pointer)),
            Int(heif_image_handle_get_chroma_bits_per_pixel(pointer))
        )
    }

    /// Decodes to planar 8-bit RGB (one plane per channel) with rotation and mirroring applied. On iPhone grids this
    /// is libheif's cheapest output: 0.29-0.34 CPU-s against 0.40-0.42 for YCbCr 4:2:0 and 0.41 for interleaved RGB
    /// (measured 2026-11-23), and a resize can take the planes as they are.
    package func decodePlanarRGB() throws(HeifError) -> HeifImage {
        var image: OpaquePointer?
        try check(heif_decode_image(pointer, &image, heif_colorspace_RGB, heif_chroma_444, nil), "heif_decode_image")
        guard let image else { throw HeifError(function: "heif_decode_image", message: "no image") }
        return HeifImage(image)
    }

    /// Decodes to interleaved 8-bit RGBA (or RGB when there is no alpha), with rotation and mirroring applied.
    package func decode() throws(HeifError) -> HeifImage {
        var image: OpaquePointer?
        let chroma = hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        try check(heif_decode_image(pointer, &image, heif_colorspace_RGB, chroma, nil), "heif_decode_image")
        guard let image else { throw HeifError(function: "heif_decode_image", message: "no image") }
        return HeifImage(image)
    }
}
