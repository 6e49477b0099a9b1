internal import CHeif

/// Owns one `heif_context` and the bytes it was read from (libheif reads them in place).
package final class HeifContext {
    let pointer: OpaquePointer
    private var storage: UnsafeMutableRawBufferPointer?

    /// An empty context, for writing.
    package init() throws(HeifError) {
        guard let pointer = heif_context_alloc() else {
            throw HeifError(function: "heif_context_alloc", message: "allocation failed")
        }
        self.pointer = pointer
    }

    /// Parses a HEIF file held in memory. `maximumSide` makes libheif refuse larger pictures before decoding.
    package convenience init(reading data: [UInt8], maximumSide: Int) throws(HeifError) {
        try self.init()
        // A C int: limits.json may allow more (LibPNG clamps its own limit the same way).
        heif_context_set_maximum_image_size_limit(pointer, Int32(clamping: maximumSide))
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        storage.copyBytes(from: data)
        self.storage = storage
        try check(
            heif_context_read_from_memory_without_copy(pointer, storage.baseAddress, data.count, nil),
            "heif_context_read_from_memory_without_copy")
    }

    deinit {
        heif_context_free(pointer)
        storage?.deallocate()
    }

    package func primaryImage() throws(HeifError) -> HeifImageHandle {
        var handle: OpaquePointer?
        try check(heif_context_get_primary_image_handle(pointer, &handle), "heif_context_get_primary_image_handle")
        guard let handle else {
            throw HeifError(function: "heif_context_get_primary_image_handle", message: "no primary image")
        }
        return HeifImageHandle(handle, context: self)
    }

    /// Encodes `image` as HEVC into this context; `orientation` (EXIF numbering) is written as irot/imir boxes.
    package func encode(_ image: HeifImage, quality: Int, orientation: Int = 1) throws(HeifError) {
        guard heif_have_encoder_for_format(heif_compression_HEVC) != 0 else {
            throw HeifError(function: "heif_have_encoder_for_format", message: "libheif has no HEVC encoder")
        }
        var encoder: OpaquePointer?
        try check(
            heif_context_get_encoder_for_format(pointer, heif_compression_HEVC, &encoder),
            "heif_context_get_encoder_for_format")
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, Int32(quality)), "heif_encoder_set_lossy_quality")
        guard let options = heif_encoding_options_alloc() else {
            throw HeifError(function: "heif_encoding_options_alloc", message: "allocation failed")
        }
        defer { heif_encoding_options_free(options) }
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation))
        try check(heif_context_encode_image(pointer, image.pointer, encoder, options, nil), "heif_context_encode_image")
    }

    package func write(to path: String) throws(HeifError) {
        try check(heif_context_write_to_file(pointer, path), "heif_context_write_to_file")
    }
}
