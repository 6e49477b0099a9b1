internal import CFFmpeg

/// A libav pixel format, with the facts Reel needs from its descriptor.
package struct PixelFormat: Sendable, Hashable, CustomStringConvertible {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    init(_ format: AVPixelFormat) { self.rawValue = format.rawValue }

    var av: AVPixelFormat { AVPixelFormat(rawValue: rawValue) }

    package init?(name: String) {
        let format = av_get_pix_fmt(name)
        guard format != AV_PIX_FMT_NONE else { return nil }
        self.init(format)
    }

    package var name: String {
        guard let name = av_get_pix_fmt_name(av) else { return "none" }
        return String(cString: name)
    }

    package var description: String { name }

    /// Bits per component of the first (luma) component.
    package var bitDepth: Int {
        guard let descriptor = av_pix_fmt_desc_get(av) else { return 0 }
        return Int(descriptor.pointee.comp.0.depth)
    }

    /// True for formats with an alpha channel, including palettes (which may carry transparency).
    package var hasAlpha: Bool {
        guard let descriptor = av_pix_fmt_desc_get(av) else { return false }
        let flags = descriptor.pointee.flags
        return flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0 || flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0
    }

    package static let yuv420p = PixelFormat(AV_PIX_FMT_YUV420P)
    package static let yuv420p10 = PixelFormat(AV_PIX_FMT_YUV420P10LE)
    package static let yuvj420p = PixelFormat(AV_PIX_FMT_YUVJ420P)
    package static let rgba = PixelFormat(AV_PIX_FMT_RGBA)
    package static let rgb24 = PixelFormat(AV_PIX_FMT_RGB24)
    package static let bgr24 = PixelFormat(AV_PIX_FMT_BGR24)
    package static let gbrap = PixelFormat(AV_PIX_FMT_GBRAP)
    package static let gbrp = PixelFormat(AV_PIX_FMT_GBRP)
    package static let gray = PixelFormat(AV_PIX_FMT_GRAY8)
    package static let gray16 = PixelFormat(AV_PIX_FMT_GRAY16LE)
    package static let pal8 = PixelFormat(AV_PIX_FMT_PAL8)
    package static let rgba64 = PixelFormat(AV_PIX_FMT_RGBA64BE)
}
