internal import CHeif

/// Owns one decoded (or to-be-encoded) `heif_image` with an interleaved RGB or RGBA plane.
package final class HeifImage {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    /// Copies tightly packed RGBA for encoding; without `hasAlpha` the alpha bytes are dropped (RGB image).
    package init(pixels: [UInt8], width: Int, height: Int, hasAlpha: Bool) throws(HeifError) {
        let channels = hasAlpha ? 4 : 3
        guard pixels.count >= width * height * 4 else {
            throw HeifError(
                function: "heif_image_create", message: "\(pixels.count) bytes is too few for \(width)x\(height)")
        }
        var image: OpaquePointer?
        try check(
            heif_image_create(
                Int32(width), Int32(height), heif_colorspace_RGB,
                hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &image), "heif_image_create")
        guard let image else { throw HeifError(function: "heif_image_create", message: "no image") }
        pointer = image
        try check(
            heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), 8),
            "heif_image_add_plane")
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
            throw HeifError(function: "heif_image_get_plane", message: "no interleaved plane")
        }
        pixels.withUnsafeBufferPointer { source in
            for y in 0..<height {
                let row = plane + y * Int(stride)
                let input = source.baseAddress! + y * width * 4
                for x in 0..<width {
                    for c in 0..<channels { row[x * channels + c] = input[x * 4 + c] }
                }
            }
        }
    }

    deinit { heif_image_release(pointer) }

    package var width: Int { Int(heif_image_get_width(pointer, heif_channel_interleaved)) }
    package var height: Int { Int(heif_image_get_height(pointer, heif_channel_interleaved)) }
    package var hasAlpha: Bool { heif_image_get_chroma_format(pointer) == heif_chroma_interleaved_RGBA }

    /// The R, G and B planes of an 8-bit planar RGB image (from `decodePlanarRGB()`), copied with their row strides;
    /// nil when the image is something else (deeper samples).
    package func rgbPlanes() -> (planes: [[UInt8]], strides: [Int], width: Int, height: Int)? {
        guard heif_image_get_colorspace(pointer) == heif_colorspace_RGB,
            heif_image_get_chroma_format(pointer) == heif_chroma_444
        else {
            return nil
        }
        var planes: [[UInt8]] = [], strides: [Int] = []
        for channel in [heif_channel_R, heif_channel_G, heif_channel_B] {
            guard heif_image_get_bits_per_pixel(pointer, channel) == 8 else { return nil }
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane_readonly(pointer, channel, &stride) else { return nil }
            let rows = Int(heif_image_get_height(pointer, channel)),
                columns = Int(heif_image_get_width(pointer, channel))
            let count = Int(stride) * (rows - 1) + columns
            planes.append(
                [UInt8](unsafeUninitializedCapacity: count) { target, initialized in
                    target.baseAddress!.initialize(from: plane, count: count)
                    initialized = count
                })
            strides.append(Int(stride))
        }
        return (
            planes, strides, Int(heif_image_get_width(pointer, heif_channel_R)),
            Int(heif_image_get_height(pointer, heif_channel_R))
        )
    }

    /// The pixels as tightly packed RGBA, alpha 255 where the image has none.
    package func rgba() throws(HeifError) -> [UInt8] {
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(pointer, heif_channel_interleaved, &stride) else {
            throw HeifError(function: "heif_image_get_plane_readonly", message: "no interleaved plane")
        }
        let width = self.width, height = self.height, channels = hasAlpha ? 4 : 3
        var output = [UInt8](repeating: 255, count: width * height * 4)
        output.withUnsafeMutableBufferPointer { target in
            for y in 0..<height {
                let row = plane + y * Int(stride)
                let out = target.baseAddress! + y * width * 4
                if channels == 4 {
                    out.update(from: row, count: width * 4)
                } else {
                    for x in 0..<width {
                        out[x * 4] = row[x * 3]
                        out[x * 4 + 1] = row[x * 3 + 1]
                        out[x * 4 + 2] = row[x * 3 + 2]
                    }
                }
            }
        }
        return output
    }
}
