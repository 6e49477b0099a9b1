internal import CPNG

/// PNG still pictures through libpng, as cwebp reads them: the default image (an APNG's first frame) as 8-bit RGBA,
/// palette and low bit depths expanded, 16-bit samples stripped, grey made RGB, tRNS made alpha, no gamma applied.
package enum PNGDecoder {
    package struct Picture: Sendable {
        package var width: Int
        package var height: Int
        package var rgba: [UInt8]
        /// An alpha channel or a tRNS chunk (the pixels may still be opaque).
        package var hasAlphaChannel: Bool
        package var iccProfile: [UInt8]?
    }

    /// Decodes `data`, refusing pictures wider or taller than `maximumSide` before their rows are read.
    /// - Throws: `PNGError` naming the call and libpng's message.
    package static func decode(_ data: [UInt8], maximumSide: Int) throws(PNGError) -> Picture {
        var info = CPNG_Info()
        return try data.withUnsafeBufferPointer { bytes throws(PNGError) -> Picture in
            guard let reader = CPNG_open(bytes.baseAddress, bytes.count, UInt32(clamping: maximumSide), &info) else {
                throw PNGError(function: "png_read_info", message: message(of: &info))
            }
            defer { CPNG_close(reader) }
            let width = Int(info.width), height = Int(info.height)
            let icc = info.icc_profile.map { Array(UnsafeBufferPointer(start: $0, count: Int(info.icc_size))) }
            var failed = false
            let rgba = [UInt8](unsafeUninitializedCapacity: width * height * 4) { target, count in
                failed = CPNG_decode(reader, target.baseAddress, width * 4, &info) != 0
                count = width * height * 4
            }
            if failed { throw PNGError(function: "png_read_image", message: message(of: &info)) }
            return Picture(
                width: width, height: height, rgba: rgba, hasAlphaChannel: info.has_alpha != 0, iccProfile: icc)
        }
    }

    private static func message(of info: inout CPNG_Info) -> String {
        withUnsafeBytes(of: &info.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// A failed libpng decode, naming the stage and libpng's message.
package struct PNGError: Error, CustomStringConvertible, Sendable, Equatable {
    package let function: String
    package let message: String

    package var description: String { "\(function) failed: \(message)" }
}
