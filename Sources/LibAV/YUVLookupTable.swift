internal import CFFmpeg
internal import ThreadPool

/// A 3D lookup table from 10-bit Y'CbCr 4:2:0 to 8-bit Y'CbCr 4:2:0: output Y' for every input Y' on a 33 × 33
/// (Cb, Cr) grid, and output (Cb, Cr) for every fourth input Y' (a 2 × 2 block's mean) on the same grid, both
/// interpolated bilinearly between grid points 32 codes apart, in 8.8 fixed point, with Y' the innermost index
/// (`luma[(cb * 33 + cr) * 1024 + y]`, `chroma[(cb * 33 + cr) * 256 + y / 4]`). Whatever the table holds is the
/// caller's (tone mapping makes one); this type only applies it, a few loads per pixel.
package struct YUVLookupTable: Sendable {
    static let gridPoints = 33
    static let plane = 33 * 33
    let luma: [UInt16]
    let chroma: [UInt32]

    /// - Throws: `AVError` when the arrays do not have the layout's sizes (1024 × 33 × 33 and 256 × 33 × 33).
    package init(luma: [UInt16], chroma: [UInt32]) throws(AVError) {
        guard luma.count == 1024 * Self.plane, chroma.count == 256 * Self.plane else {
            throw AVError(
                function: "YUVLookupTable", message: "tables of \(luma.count) and \(chroma.count) entries do not fit")
        }
        self.luma = luma
        self.chroma = chroma
    }
}

extension Frame {
    /// This picture (yuv420p10, or yuv420p read as 10-bit) through `table`, as a new yuv420p picture with the same
    /// timestamp; rows are split over `threads` threads. Colour tags are the caller's to set.
    /// - Throws: `AVError` for other pixel formats, or when the output cannot be allocated.
    package func mapped(through table: YUVLookupTable, threads: Int = 2) throws(AVError) -> Frame {
        let shift: Int
        switch pixelFormat {
        case .yuv420p10: shift = 0
        case .yuv420p, .yuvj420p: shift = 2
        default:
            throw AVError(
                function: "Frame.mapped(through:)", message: "a \(pixelFormat) picture cannot go through a 4:2:0 table")
        }
        let output = try Frame(width: width, height: height, pixelFormat: .yuv420p)
        output.pts = pts
        let width = self.width, height = self.height
        let pairs = (height + 1) / 2
        let parts = max(1, min(threads, pairs))
        nonisolated(unsafe) let input = pointer, target = output.pointer
        table.luma.withUnsafeBufferPointer { lumaTable in
            table.chroma.withUnsafeBufferPointer { chromaTable in
                nonisolated(unsafe) let lumaTable = lumaTable.baseAddress!, chromaTable = chromaTable.baseAddress!
                ParallelLoop.perform(iterations: parts) { part in
                    let rows = (pairs * part / parts)..<(pairs * (part + 1) / parts)
                    Self.map(
                        input, into: target, width: width, height: height, pairs: rows, shift: shift,
                        luma: lumaTable, chroma: chromaTable)
                }
            }
        }
        return output
    }

    /// The inner loop: each 2 × 2 block's chroma picks the grid cell and weights once, for its four pixels.
    private static func map(
        _ input: UnsafeMutablePointer<AVFrame>, into output: UnsafeMutablePointer<AVFrame>, width: Int, height: Int,
        pairs: Range<Int>, shift: Int, luma: UnsafePointer<UInt16>, chroma: UnsafePointer<UInt32>
    ) {
        let grid = YUVLookupTable.gridPoints
        let wide = shift == 0
        let inY = CFFmpeg_frame_plane(input, 0)!, inU = CFFmpeg_frame_plane(input, 1)!
        let inV = CFFmpeg_frame_plane(input, 2)!
        let inYStride = Int(CFFmpeg_frame_linesize(input, 0)), inCStride = Int(CFFmpeg_frame_linesize(input, 1))
        let outY = CFFmpeg_frame_plane(output, 0)!, outU = CFFmpeg_frame_plane(output, 1)!
        let outV = CFFmpeg_frame_plane(output, 2)!
        let outYStride = Int(CFFmpeg_frame_linesize(output, 0)), outCStride = Int(CFFmpeg_frame_linesize(output, 1))
        @inline(__always) func sample(_ row: UnsafeMutablePointer<UInt8>, _ x: Int) -> Int {
            wide
                ? min(Int(UnsafeRawPointer(row).load(fromByteOffset: 2 * x, as: UInt16.self)), 1023)
                : Int(row[x]) << 2
        }
        let blocks = (width + 1) / 2
        for pair in pairs {
            let y0 = 2 * pair, y1 = min(2 * pair + 1, height - 1)
            let rowY0 = inY + y0 * inYStride, rowY1 = inY + y1 * inYStride
            let rowU = inU + pair * inCStride, rowV = inV + pair * inCStride
            let out0 = outY + y0 * outYStride, out1 = outY + y1 * outYStride
            let outRowU = outU + pair * outCStride, outRowV = outV + pair * outCStride
            for block in 0..<blocks {
                let u = sample(rowU, block), v = sample(rowV, block)
                let uf = u & 31, vf = v & 31
                let base = (u >> 5) * grid + (v >> 5)
                let w00 = (32 - uf) * (32 - vf), w01 = (32 - uf) * vf, w10 = uf * (32 - vf), w11 = uf * vf
                @inline(__always) func mapLuma(_ y: Int) -> UInt8 {
                    let p = luma + base * 1024 + y
                    let sum =
                        w00 * Int(p[0]) + w01 * Int(p[1024]) + w10 * Int(p[grid * 1024])
                        + w11 * Int(p[(grid + 1) * 1024])
                    return UInt8(truncatingIfNeeded: (sum + (1 << 17)) >> 18)
                }
                let x0 = 2 * block, x1 = min(2 * block + 1, width - 1)
                let a = sample(rowY0, x0), b = sample(rowY0, x1), c = sample(rowY1, x0), d = sample(rowY1, x1)
                out0[x0] = mapLuma(a)
                out0[x1] = mapLuma(b)
                out1[x0] = mapLuma(c)
                out1[x1] = mapLuma(d)
                let mean = (a + b + c + d + 2) >> 2
                let p = chroma + base * 256 + min((mean + 2) >> 2, 255)
                let e00 = Int(p[0]), e01 = Int(p[256]), e10 = Int(p[grid * 256]), e11 = Int(p[(grid + 1) * 256])
                let cb = w00 * (e00 >> 16) + w01 * (e01 >> 16) + w10 * (e10 >> 16) + w11 * (e11 >> 16)
                let cr = w00 * (e00 & 0xFFFF) + w01 * (e01 & 0xFFFF) + w10 * (e10 & 0xFFFF) + w11 * (e11 & 0xFFFF)
                outRowU[block] = UInt8(truncatingIfNeeded: (cb + (1 << 17)) >> 18)
                outRowV[block] = UInt8(truncatingIfNeeded: (cr + (1 << 17)) >> 18)
            }
        }
    }
}
