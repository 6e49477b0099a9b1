internal import Ingest

/// A decoded picture as 8-bit planar YCbCr with the BT.601 matrix, as a JPEG's IDCT leaves it: nothing converted to
/// RGB yet, chroma not yet upsampled. Lossy WebP is YCbCr too, so such a picture reaches
/// the encoder without a round trip through RGB.
struct PlanarPicture {
    var width: Int
    var height: Int
    /// Y, Cb and Cr, each with its row stride in `strides`.
    var planes: [[UInt8]]
    var strides: [Int]
    /// log2 chroma subsampling: (1, 1) is 4:2:0, (1, 0) 4:2:2, (0, 0) 4:4:4.
    var chromaShift: (horizontal: Int, vertical: Int)
    /// Full range (0–255, JPEG's) or limited (16–235, video's).
    var isFullRange: Bool
    var iccProfile: [UInt8]?
}

/// An opaque decoded picture as three 8-bit planes, R, G and B, each with its row stride (libheif's cheapest output).
struct PlanarRGBPicture {
    var width: Int
    var height: Int
    var planes: [[UInt8]]
    var strides: [Int]
    var iccProfile: [UInt8]?
}

/// What a decoder produced: packed RGBA, which every format can give, or planes where they come for free.
enum DecodedImage {
    case rgba(DecodedPicture)
    case planar(PlanarPicture)
    case planarRGB(PlanarRGBPicture)

    var width: Int {
        switch self {
        case let .rgba(picture): picture.width
        case let .planar(picture): picture.width
        case let .planarRGB(picture): picture.width
        }
    }

    var height: Int {
        switch self {
        case let .rgba(picture): picture.height
        case let .planar(picture): picture.height
        case let .planarRGB(picture): picture.height
        }
    }
}
