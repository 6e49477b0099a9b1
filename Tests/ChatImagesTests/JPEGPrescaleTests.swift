import LibTurboJPEG
import TestTraits
import Testing

/// Which IDCT pre-scale a JPEG decode uses before the Lanczos resize: only 1/1 or factors of 1/2 and below, since
/// the 5/8, 3/4 and 7/8 IDCTs cost quality (measured; docs/quirks.md, "JPEG IDCT pre-scale").
@Suite(.offThePool, .timeLimit(.minutes(5))) struct JPEGPrescaleTests {
    @Test(arguments: [
        // A 1.26× reduction (2572 → 2048) used to decode at 7/8 = 2251 px; it now decodes at full size.
        (2572, 1740, 2048, 1386, 2572, 1740),
        // 1300 → 1024 used 7/8; 3264 → 2048 used 5/8; both decode at full size now.
        (1300, 975, 1024, 768, 1300, 975),
        (3264, 2448, 2048, 1536, 3264, 2448),
        // Two-fold and larger reductions keep the cheap IDCT step: 1/2, 3/8, 1/4, 1/8.
        (4096, 3072, 2048, 1536, 2048, 1536),
        (3264, 2448, 1024, 768, 1224, 918),
        (8192, 6144, 2048, 1536, 2048, 1536),
        (16384, 12288, 2048, 1536, 2048, 1536),
    ])
    func choosesFullSizeOrAFactorOfOneHalfAndBelow(
        width: Int, height: Int, minWidth: Int, minHeight: Int, expectedWidth: Int, expectedHeight: Int
    ) {
        let chosen = JPEGDecompressor.scaledSize(width: width, height: height, covering: (minWidth, minHeight))
        #expect(chosen.0 == expectedWidth && chosen.1 == expectedHeight, "\(width)x\(height) → \(chosen)")
        #expect(chosen.0 >= minWidth && chosen.1 >= minHeight)
    }
}
