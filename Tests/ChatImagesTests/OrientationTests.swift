import TestTraits
import Testing

@testable import ChatImages

/// EXIF orientation, checked against the standard's wording: where the stored 0th row and 0th column end up.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct OrientationTests {
    /// A 3x2 stored picture whose pixels are numbered 0...5 row by row (stored in the red byte).
    let stored: [UInt8] = (0..<6).flatMap { [UInt8($0), 0, 0, 255] }

    func corners(
        _ orientation: Int
    ) -> (width: Int, height: Int, topLeft: UInt8, topRight: UInt8, bottomLeft: UInt8, bottomRight: UInt8) {
        let out = Orientation.apply(orientation, to: stored, width: 3, height: 2)
        func at(_ x: Int, _ y: Int) -> UInt8 { out.pixels[(y * out.width + x) * 4] }
        return (
            out.width, out.height, at(0, 0), at(out.width - 1, 0), at(0, out.height - 1),
            at(out.width - 1, out.height - 1)
        )
    }

    // Stored pixel 0 is (row 0, column 0); pixel 2 is (row 0, last column); pixel 3 is (last row, column 0).
    @Test(arguments: [
        // orientation, viewed size, where stored 0 / 2 / 3 are seen (tl, tr, bl, br)
        (1, 3, 2, [0: "tl", 2: "tr", 3: "bl"]),
        (2, 3, 2, [0: "tr", 2: "tl", 3: "br"]),
        (3, 3, 2, [0: "br", 2: "bl", 3: "tr"]),
        (4, 3, 2, [0: "bl", 2: "br", 3: "tl"]),
        (5, 2, 3, [0: "tl", 2: "bl", 3: "tr"]),
        (6, 2, 3, [0: "tr", 2: "br", 3: "tl"]),
        (7, 2, 3, [0: "br", 2: "tr", 3: "bl"]),
        (8, 2, 3, [0: "bl", 2: "tl", 3: "br"]),
    ])
    func storedCornersLandWhereTheStandardSays(orientation: Int, width: Int, height: Int, expected: [Int: String]) {
        let seen = corners(orientation)
        #expect(seen.width == width && seen.height == height)
        let positions = ["tl": seen.topLeft, "tr": seen.topRight, "bl": seen.bottomLeft, "br": seen.bottomRight]
        for (pixel, corner) in expected {
            #expect(
                positions[corner] == UInt8(pixel),
                "orientation \(orientation): stored pixel \(pixel) should be at \(corner)")
        }
    }

    @Test func everyPixelIsKeptExactlyOnce() {
        for orientation in 1...8 {
            let out = Orientation.apply(orientation, to: stored, width: 3, height: 2)
            #expect(stride(from: 0, to: out.pixels.count, by: 4).map { out.pixels[$0] }.sorted() == [0, 1, 2, 3, 4, 5])
        }
    }

    @Test func planesTurnExactlyAsRGBADoes() {
        let plane: [UInt8] = Array(0..<6)
        for orientation in 1...8 {
            let rgba = Orientation.apply(orientation, to: stored, width: 3, height: 2)
            let turned = Orientation.apply(orientation, toPlane: plane, width: 3, height: 2)
            #expect(
                turned == stride(from: 0, to: rgba.pixels.count, by: 4).map { rgba.pixels[$0] },
                "orientation \(orientation)")
        }
    }

    @Test func targetSizeCapsTheLongestSideAndNeverUpscales() {
        #expect(TargetSize.fitting(width: 4032, height: 3024, maxSide: 2048) == TargetSize(width: 2048, height: 1536))
        #expect(TargetSize.fitting(width: 3024, height: 4032, maxSide: 1024) == TargetSize(width: 768, height: 1024))
        #expect(TargetSize.fitting(width: 1, height: 1, maxSide: 1024) == TargetSize(width: 1, height: 1))
        #expect(TargetSize.fitting(width: 800, height: 600, maxSide: 2048) == TargetSize(width: 800, height: 600))
        #expect(TargetSize.fitting(width: 10000, height: 1, maxSide: 1024) == TargetSize(width: 1024, height: 1))
        #expect(TargetSize.fitting(width: 2048, height: 2048, maxSide: 2048) == TargetSize(width: 2048, height: 2048))
    }

    @Test func cmykConversionFollowsAdobeInversion() {
        // Inverted storage: 255 means no ink. No ink at all is white; full K is black.
        #expect(
            Array(CMYKConversion.rgba(fromCMYK: [255, 255, 255, 255], inverted: true).prefix(3)) == [255, 255, 255])
        #expect(Array(CMYKConversion.rgba(fromCMYK: [255, 255, 255, 0], inverted: true).prefix(3)) == [0, 0, 0])
        // Plain storage: full cyan ink removes red.
        #expect(Array(CMYKConversion.rgba(fromCMYK: [255, 0, 0, 0], inverted: false).prefix(3)) == [0, 255, 255])
    }
}
