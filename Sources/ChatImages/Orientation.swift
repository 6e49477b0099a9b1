/// EXIF orientation 1–8 applied to packed RGBA. Pure pixel moves: no filtering, no libav.
public enum Orientation {
    /// Whether the orientation swaps width and height (the transposing ones, 5–8).
    public static func swapsSides(_ orientation: Int) -> Bool { (5...8).contains(orientation) }

    /// Returns the picture as it should be viewed. For each output pixel (x, y) it reads the stored pixel that
    /// the EXIF transform moves there.
    public static func apply(_ orientation: Int, to pixels: [UInt8], width: Int, height: Int) -> (pixels: [UInt8], width: Int, height: Int) {
        guard (2...8).contains(orientation) else { return (pixels, width, height) }
        let swaps = swapsSides(orientation)
        let outWidth = swaps ? height : width
        let outHeight = swaps ? width : height
        var output = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { sourceBuffer in
            output.withUnsafeMutableBufferPointer { targetBuffer in
                let source = UnsafeRawPointer(sourceBuffer.baseAddress!).assumingMemoryBound(to: UInt32.self)
                let target = UnsafeMutableRawPointer(targetBuffer.baseAddress!).assumingMemoryBound(to: UInt32.self)
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let (sx, sy): (Int, Int) = switch orientation {
                        case 2: (width - 1 - x, y)                       // mirrored horizontally
                        case 3: (width - 1 - x, height - 1 - y)          // rotated 180°
                        case 4: (x, height - 1 - y)                      // mirrored vertically
                        case 5: (y, x)                                   // transposed
                        case 6: (y, height - 1 - x)                      // rotate 90° clockwise to view
                        case 7: (width - 1 - y, height - 1 - x)          // transversed
                        default: (width - 1 - y, x)                      // 8: rotate 90° counter-clockwise to view
                        }
                        target[y * outWidth + x] = source[sy * width + sx]
                    }
                }
            }
        }
        return (output, outWidth, outHeight)
    }
}
