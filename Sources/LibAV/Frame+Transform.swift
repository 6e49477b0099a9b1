internal import CFFmpeg

/// Picture operations the ladder needs that libswscale does not do: rotation, and luma statistics for posters.
extension Frame {
    /// A copy of an 8-bit or 10-bit 4:2:0 frame turned clockwise by 90, 180 or 270 degrees (the display matrix's
    /// rotation), so the output is upright and carries no rotation tag. Timestamps and colour tags are kept.
    package func rotated(clockwise degrees: Int) throws(AVError) -> Frame {
        switch pixelFormat {
        case .yuv420p, .yuvj420p: return try rotated(clockwise: degrees, sample: UInt8.self)
        case .yuv420p10: return try rotated(clockwise: degrees, sample: UInt16.self)
        default: throw AVError(function: "rotated", message: "needs yuv420p or yuv420p10, got \(pixelFormat)")
        }
    }

    private func rotated<Sample>(clockwise degrees: Int, sample: Sample.Type) throws(AVError) -> Frame {
        let swaps = degrees == 90 || degrees == 270
        let output = try Frame(width: swaps ? height : width, height: swaps ? width : height, pixelFormat: pixelFormat)
        let size = MemoryLayout<Sample>.size
        for plane in 0..<3 {
            let sw = plane == 0 ? width : (width + 1) / 2
            let sh = plane == 0 ? height : (height + 1) / 2
            let source = UnsafeMutableRawPointer(CFFmpeg_frame_plane(pointer, Int32(plane))!).assumingMemoryBound(
                to: Sample.self)
            let target = UnsafeMutableRawPointer(CFFmpeg_frame_plane(output.pointer, Int32(plane))!)
                .assumingMemoryBound(to: Sample.self)
            // Line sizes are in bytes, always a multiple of the sample size.
            let ss = linesize(plane) / size, ts = output.linesize(plane) / size
            let ow = swaps ? sh : sw
            let oh = swaps ? sw : sh
            for y in 0..<oh {
                let row = target + y * ts
                switch degrees {
                case 90: for x in 0..<ow { row[x] = source[(sh - 1 - x) * ss + y] }
                case 180: for x in 0..<ow { row[x] = source[(sh - 1 - y) * ss + (sw - 1 - x)] }
                case 270: for x in 0..<ow { row[x] = source[x * ss + (sw - 1 - y)] }
                default: (row).update(from: source + y * ss, count: ow)
                }
            }
        }
        output.pointer.pointee.pts = pointer.pointee.pts
        output.colorDescription = colorDescription
        return output
    }

    /// Mean and standard deviation of the luma plane (sampled every 4th pixel), in 8-bit units.
    /// A black or blank picture has a low mean or a low deviation.
    package func lumaStatistics() -> (mean: Double, deviation: Double) {
        let plane = CFFmpeg_frame_plane(pointer, 0)!
        let stride = linesize(0)
        let deep = pixelFormat.bitDepth > 8
        var sum = 0.0, squares = 0.0, count = 0.0
        for y in Swift.stride(from: 0, to: height, by: 4) {
            for x in Swift.stride(from: 0, to: width, by: 4) {
                let v: Double =
                    deep
                    ? Double(UnsafeRawPointer(plane + y * stride + x * 2).loadUnaligned(as: UInt16.self)) / 4
                    : Double(plane[y * stride + x])
                sum += v
                squares += v * v
                count += 1
            }
        }
        guard count > 0 else { return (0, 0) }
        let mean = sum / count
        return (mean, (max(0, squares / count - mean * mean)).squareRoot())
    }
}
