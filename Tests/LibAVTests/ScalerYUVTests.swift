import TestTraits
import Testing

@testable import LibAV

/// `Scaler.resizeYUV`: planar YCbCr in, limited-range 4:2:0 out, with the range and the plane sizes right.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ScalerYUVTests {
    /// Flat planes of one luma and one chroma value, `chromaShift` subsampled, tightly packed.
    func flat(
        width: Int, height: Int, luma: UInt8, chroma: UInt8, shift: (Int, Int)
    ) -> (planes: [[UInt8]], strides: [Int]) {
        let cw = (width + (1 << shift.0) - 1) >> shift.0, ch = (height + (1 << shift.1) - 1) >> shift.1
        return (
            [
                [UInt8](repeating: luma, count: width * height), [UInt8](repeating: chroma, count: cw * ch),
                [UInt8](repeating: chroma, count: cw * ch),
            ], [width, cw, cw]
        )
    }

    @Test(arguments: [(0, 16, 0, 16), (255, 235, 255, 240), (128, 126, 128, 128)])
    func fullRangeLandsInTheLimitedRange(inLuma: Int, outLuma: Int, inChroma: Int, outChroma: Int) throws {
        let input = flat(width: 301, height: 201, luma: UInt8(inLuma), chroma: UInt8(inChroma), shift: (1, 1))
        let output = try Scaler.resizeYUV(
            input.planes, strides: input.strides, width: 301, height: 201, chromaShift: (1, 1),
            isFullRange: true, toWidth: 150, toHeight: 101)
        #expect(output[0].count == 150 * 101 && output[1].count == 75 * 51 && output[2].count == 75 * 51)
        #expect(Set(output[0]) == [UInt8(outLuma)], "\(Set(output[0]))")
        #expect(Set(output[1]) == [UInt8(outChroma)] && Set(output[2]) == [UInt8(outChroma)], "\(Set(output[1]))")
    }

    @Test func limitedRangeStaysAsItIs() throws {
        let input = flat(width: 64, height: 48, luma: 235, chroma: 16, shift: (1, 1))
        let output = try Scaler.resizeYUV(
            input.planes, strides: input.strides, width: 64, height: 48, chromaShift: (1, 1),
            isFullRange: false, toWidth: 32, toHeight: 24)
        #expect(Set(output[0]) == [235] && Set(output[2]) == [16])
    }

    @Test(arguments: [(0, 0), (1, 0), (0, 1), (1, 1)])
    func everySubsamplingComesOutAs420(horizontal: Int, vertical: Int) throws {
        var input = flat(width: 99, height: 77, luma: 200, chroma: 60, shift: (horizontal, vertical))
        // Padded strides, as libheif hands planes out.
        input.planes = input.planes.enumerated().map { index, plane in
            let width = input.strides[index], rows = plane.count / width
            return (0..<rows).flatMap { Array(plane[$0 * width..<($0 + 1) * width]) + [0, 0, 0] }
        }
        input.strides = input.strides.map { $0 + 3 }
        let output = try Scaler.resizeYUV(
            input.planes, strides: input.strides, width: 99, height: 77,
            chromaShift: (horizontal, vertical), isFullRange: true, toWidth: 99, toHeight: 77)
        #expect(output[0].count == 99 * 77 && output[1].count == 50 * 39)
        #expect(Set(output[0]).count == 1 && Set(output[1]).count == 1, "padding leaked into the picture")
    }

    @Test func planesTooSmallForTheSizeAreRefused() throws {
        let input = flat(width: 64, height: 48, luma: 0, chroma: 0, shift: (1, 1))
        #expect(throws: AVError.self) {
            try Scaler.resizeYUV(
                input.planes, strides: input.strides, width: 65, height: 48, chromaShift: (1, 1),
                isFullRange: true, toWidth: 32, toHeight: 24)
        }
    }
}
