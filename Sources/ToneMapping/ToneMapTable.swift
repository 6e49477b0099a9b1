internal import ThreadPool

/// `HDRToSDRConversion` sampled as a lookup table, so a 1080x1920 picture converts in a few milliseconds: output
/// Y' for every 10-bit input Y' on a 33 × 33 grid of (Cb, Cr) (one grid step is 32 codes, interpolated
/// bilinearly), and output (Cb, Cr) for every fourth input Y' (a 2 × 2 block's mean) on the same grid. Values are
/// 8-bit codes in 8.8 fixed point. Layout as `YUVLookupTable` in LibAV reads it: Y' innermost, so the pixels of a
/// picture, whose neighbours have nearby Y' and the same chroma cell, read nearby entries (measured: the mapping
/// of the 768x576 highlight clip took 22 % fewer CPU samples than with Y' outermost).
package struct ToneMapTable: Sendable {
    /// Grid points per chroma axis, and the 10-bit codes between two of them.
    package static let gridPoints = 33
    package static let gridStep = 32
    /// Input luma levels of the chroma table: 10-bit Y' / 4.
    package static let chromaLumaLevels = 256

    /// Output Y' × 256, index `(cbIndex * 33 + crIndex) * 1024 + y`.
    package let luma: [UInt16]
    /// Output Cb × 256 in the high half and Cr × 256 in the low half, index `(cbIndex * 33 + crIndex) * 256 + y / 4`.
    package let chroma: [UInt32]

    /// A code (0...255) in 8.8 fixed point.
    @Sendable static func fixed(_ code: Double) -> UInt32 { UInt32((min(max(code, 0), 255) * 256).rounded()) }

    /// Samples `conversion` at every table point, on `threads` threads.
    package init(_ conversion: HDRToSDRConversion, threads: Int = 2) {
        let n = Self.gridPoints, plane = n * n
        let lumaCount = 1024 * plane, chromaCount = Self.chromaLumaLevels * plane
        var luma = [UInt16](repeating: 0, count: lumaCount)
        var chroma = [UInt32](repeating: 0, count: chromaCount)
        let parts = max(threads, 1)
        luma.withUnsafeMutableBufferPointer { lumaOut in
            chroma.withUnsafeMutableBufferPointer { chromaOut in
                nonisolated(unsafe) let lumaOut = lumaOut, chromaOut = chromaOut
                ParallelLoop.perform(iterations: parts) { part in
                    // Each part owns every `parts`-th input Y': no two write the same entry.
                    for y in stride(from: part, to: 1024, by: parts) {
                        for cbIndex in 0..<n {
                            for crIndex in 0..<n {
                                let out = conversion.convertSampled(
                                    y: Double(y), cb: Double(cbIndex * Self.gridStep),
                                    cr: Double(crIndex * Self.gridStep))
                                let index = cbIndex * n + crIndex
                                lumaOut[index * 1024 + y] = UInt16(Self.fixed(out.y))
                                if y % 4 == 0 {
                                    chromaOut[index * Self.chromaLumaLevels + y / 4] =
                                        Self.fixed(out.cb) << 16 | Self.fixed(out.cr)
                                }
                            }
                        }
                    }
                }
            }
        }
        self.luma = luma
        self.chroma = chroma
    }
}
