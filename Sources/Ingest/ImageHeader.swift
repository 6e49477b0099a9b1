package import MediaModel

/// Facts read from an image's own headers before any decoder sees it: size, orientation, alpha, completeness.
package struct ImageHeader: Sendable, Equatable {
    package var width: Int
    package var height: Int
    /// EXIF orientation 1–8 (1 when there is none).
    package var orientation: Int
    package var hasAlpha: Bool
    /// False when the file ends before its structure does (missing JPEG EOI, PNG IEND, GIF trailer, ...).
    package var isComplete: Bool
    /// JPEG only: the picture is CMYK or YCCK (4 components).
    package var isCMYK: Bool = false
    /// JPEG only: an Adobe APP14 segment is present, so CMYK samples are stored inverted (Photoshop's convention).
    package var hasAdobeMarker: Bool = false
    /// JPEG only: the ICC profile reassembled from its APP2 chunks.
    package var iccProfile: [UInt8]?
    package var frameCount: Int = 1

    /// Reads the header of `bytes` as `format`; nil when the header itself is malformed.
    package static func read(_ format: SniffedFormat, from bytes: [UInt8]) -> ImageHeader? {
        switch format {
        case .png: readPNG(bytes)
        case .jpeg: readJPEG(bytes)
        case .gif: readGIF(bytes)
        case .webp: readWebP(bytes)
        case .bmp: readBMP(bytes)
        case .tiff: readTIFF(bytes)
        case .heif: readHEIF(bytes)
        default: nil
        }
    }
}

extension [UInt8] {
    func bigEndian32(_ at: Int) -> Int? {
        guard at >= 0, at + 4 <= count else { return nil }
        return Int(self[at]) << 24 | Int(self[at + 1]) << 16 | Int(self[at + 2]) << 8 | Int(self[at + 3])
    }
    func bigEndian16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= count else { return nil }
        return Int(self[at]) << 8 | Int(self[at + 1])
    }
    func littleEndian32(_ at: Int) -> Int? {
        guard at >= 0, at + 4 <= count else { return nil }
        return Int(self[at]) | Int(self[at + 1]) << 8 | Int(self[at + 2]) << 16 | Int(self[at + 3]) << 24
    }
    func littleEndian16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= count else { return nil }
        return Int(self[at]) | Int(self[at + 1]) << 8
    }
    func ascii(_ at: Int, _ length: Int) -> String {
        guard at >= 0, at + length <= count else { return "" }
        return String(decoding: self[at..<at + length], as: UTF8.self)
    }
}
