/// EXIF orientation 1–8 applied to packed RGBA or to one plane of samples. Pure pixel moves: no filtering, no libav.
package enum Orientation {
    /// Whether the orientation swaps width and height (the transposing ones, 5–8).
    package static func swapsSides(_ orientation: Int) -> Bool { (5...8).contains(orientation) }

    /// Returns the picture as it should be viewed. For each output pixel (x, y) it reads the stored pixel that
    /// the EXIF transform moves there.
    package static func apply(
        _ orientation: Int, to pixels: [UInt8], width: Int, height: Int
    ) -> (pixels: [UInt8], width: Int, height: Int) {
        guard (2...8).contains(orientation), pixels.count >= width * height * 4 else { return (pixels, width, height) }
        var output = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                move(
                    orientation, from: source.bindMemory(to: UInt32.self).baseAddress!, width: width, height: height,
                    to: target.bindMemory(to: UInt32.self).baseAddress!)
            }
        }
        return (output, swapsSides(orientation) ? height : width, swapsSides(orientation) ? width : height)
    }

    /// The same for one tightly packed plane of one-byte samples (a Y, U or V plane).
    static func apply(_ orientation: Int, toPlane plane: [UInt8], width: Int, height: Int) -> [UInt8] {
        guard (2...8).contains(orientation), plane.count >= width * height else { return plane }
        var output = [UInt8](repeating: 0, count: width * height)
        plane.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                move(orientation, from: source.baseAddress!, width: width, height: height, to: target.baseAddress!)
            }
        }
        return output
    }

    /// Writes the viewed picture into `target`. The stored sample for viewed (x, y) is at `origin + x * stepX + y * stepY`:
    /// 2 mirrors horizontally, 3 rotates 180°, 4 mirrors vertically, 5 transposes, 6 needs 90° clockwise to view,
    /// 7 transverses, 8 needs 90° counter-clockwise.
    private static func move<Sample>(
        _ orientation: Int, from source: UnsafePointer<Sample>, width: Int, height: Int,
        to target: UnsafeMutablePointer<Sample>
    ) {
        let last = (height - 1) * width
        let (origin, stepX, stepY): (Int, Int, Int) =
            switch orientation {
            case 2: (width - 1, -1, width)
            case 3: (last + width - 1, -1, -width)
            case 4: (last, 1, -width)
            case 5: (0, width, 1)
            case 6: (last, -width, 1)
            case 7: (last + width - 1, -width, -1)
            default: (width - 1, width, -1)  // 8
            }
        let outWidth = swapsSides(orientation) ? height : width
        let outHeight = swapsSides(orientation) ? width : height
        for y in 0..<outHeight {
            let row = target + y * outWidth
            var index = origin + y * stepY
            for x in 0..<outWidth {
                row[x] = source[index]
                index += stepX
            }
        }
    }
}
