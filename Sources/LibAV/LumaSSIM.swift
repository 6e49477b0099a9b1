internal import CFFmpeg

/// SSIM of the luma (Y) plane: the mean of SSIM over 8×8 windows placed every 4 pixels, as x264 and ffmpeg's ssim
/// filter measure it, with the usual constants for 8-bit samples ((0.01·255)², (0.03·255)²).
package struct LumaSSIM: Sendable, Equatable {
    /// The sum of the windows' SSIM and how many windows there were, so frames can be pooled into a clip's mean.
    package var total: Double
    package var windows: Int

    package init(total: Double = 0, windows: Int = 0) {
        self.total = total
        self.windows = windows
    }

    package var mean: Double { windows > 0 ? total / Double(windows) : 0 }

    package static func + (a: LumaSSIM, b: LumaSSIM) -> LumaSSIM {
        LumaSSIM(total: a.total + b.total, windows: a.windows + b.windows)
    }

    /// One window's SSIM from its sums over `count` pixels: Σa, Σb, Σa², Σb², Σab. Pure; population moments.
    package static func window(
        sumA: Double, sumB: Double, sumAA: Double, sumBB: Double, sumAB: Double, count: Double
    ) -> Double {
        let c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255)
        let meanA = sumA / count, meanB = sumB / count
        let varianceA = sumAA / count - meanA * meanA
        let varianceB = sumBB / count - meanB * meanB
        let covariance = sumAB / count - meanA * meanB
        return (2 * meanA * meanB + c1) * (2 * covariance + c2)
            / ((meanA * meanA + meanB * meanB + c1) * (varianceA + varianceB + c2))
    }
}

extension Frame {
    /// The SSIM of this picture's luma against `reference`'s: both 8-bit 4:2:0 (or any 8-bit planar format) of the
    /// same size. Sums of 4×4 blocks are made once and each 8×8 window adds four of them.
    /// - Throws: `AVError` when the two pictures differ in size or are not 8-bit.
    package func lumaSSIM(against reference: Frame) throws(AVError) -> LumaSSIM {
        guard width == reference.width, height == reference.height, pixelFormat.bitDepth == 8,
            reference.pixelFormat.bitDepth == 8
        else {
            throw AVError(
                function: "lumaSSIM",
                message: "pictures of \(width)x\(height) (\(pixelFormat)) and \(reference.width)x\(reference.height) "
                    + "(\(reference.pixelFormat)) cannot be compared: SSIM needs two 8-bit pictures of one size",
                code: CFFmpeg_AVERROR(EINVAL))
        }
        let blocksX = width / 4, blocksY = height / 4
        guard blocksX >= 2, blocksY >= 2 else { return LumaSSIM() }
        let a = CFFmpeg_frame_plane(pointer, 0)!, strideA = linesize(0)
        let b = CFFmpeg_frame_plane(reference.pointer, 0)!, strideB = reference.linesize(0)
        // Per 4×4 block: Σa, Σb, Σa², Σb², Σab (integers: exact), for two block rows at a time.
        var previous = [Int](repeating: 0, count: blocksX * 5), current = previous
        func sums(row: Int, into buffer: inout [Int]) {
            for bx in 0..<blocksX {
                var sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0
                for dy in 0..<4 {
                    let rowA = a + (row * 4 + dy) * strideA + bx * 4, rowB = b + (row * 4 + dy) * strideB + bx * 4
                    for dx in 0..<4 {
                        let va = Int(rowA[dx]), vb = Int(rowB[dx])
                        sa += va
                        sb += vb
                        saa += va * va
                        sbb += vb * vb
                        sab += va * vb
                    }
                }
                let base = bx * 5
                buffer[base] = sa
                buffer[base + 1] = sb
                buffer[base + 2] = saa
                buffer[base + 3] = sbb
                buffer[base + 4] = sab
            }
        }
        var result = LumaSSIM()
        sums(row: 0, into: &previous)
        for row in 1..<blocksY {
            sums(row: row, into: &current)
            for bx in 0..<(blocksX - 1) {
                let left = bx * 5, right = left + 5
                func window(_ k: Int) -> Double {
                    Double(previous[left + k] + previous[right + k] + current[left + k] + current[right + k])
                }
                result.total += LumaSSIM.window(
                    sumA: window(0), sumB: window(1), sumAA: window(2), sumBB: window(3),
                    sumAB: window(4), count: 64)
                result.windows += 1
            }
            swap(&previous, &current)
        }
        return result
    }
}
