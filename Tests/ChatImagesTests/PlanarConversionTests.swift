import ChatImages
import Foundation
import Ingest
import LibWebP
import MediaFixtures
import MediaModel
import TestTraits
import Testing

/// Resized JPEGs and HEIFs take the planar path (YCbCr resized as it is, no RGB on the way to the WebP encoder):
/// it must give the same upright picture and colours as the RGBA path.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct PlanarConversionTests {
    let directory: TemporaryDirectory
    let converter = ChatImageConverter()
    init() throws { directory = try TemporaryDirectory() }

    let red = (220, 30, 30), green = (30, 200, 40), blue = (30, 40, 220), white = (240, 240, 240)

    func convert(
        _ name: String, _ bytes: [UInt8], quality: ImageQuality = .medium
    ) throws -> (ChatImageResult, WebPFile) {
        let source = try directory.write(name, bytes)
        let output = directory.file(name + ".webp")
        let result = try converter.convert(source, to: output, quality: quality)
        return (result, try WebPFile(path: output))
    }

    /// Odd sizes, so the chroma planes round up and the turns must keep them aligned with luma.
    @Test(arguments: 1...8)
    func resizedJPEGIsUprightInEveryOrientation(orientation: Int) throws {
        let upright = SyntheticPhoto(width: 1301, height: 977)
        let inverse = [1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 8, 7: 7, 8: 6][orientation]!
        let stored = Orientation.apply(inverse, to: upright.rgba, width: 1301, height: 977)
        var photo = SyntheticPhoto(width: stored.width, height: stored.height)
        photo.rgba = stored.pixels
        let (result, webp) = try convert(
            "o\(orientation).jpg", try photo.jpeg(.progressive, exifOrientation: orientation))
        #expect(result.width == 1024 && result.height == 769, "\(result.width)x\(result.height)")
        #expect(webp.image.width == 1024 && webp.image.height == 769)
        #expect(close(webp.color(0.25, 0.25), red, tolerance: 12))
        #expect(close(webp.color(0.75, 0.25), green, tolerance: 12))
        #expect(close(webp.color(0.25, 0.75), blue, tolerance: 12))
        #expect(close(webp.color(0.75, 0.75), white, tolerance: 12))
    }

    /// Full-range JPEG YCbCr must land in WebP's limited range without clipping or washing out the extremes.
    @Test(arguments: [SyntheticPhoto.JPEGFlavour.baseline, .chroma422, .progressive])
    func resizedJPEGKeepsBlackWhiteAndSaturatedColours(flavour: SyntheticPhoto.JPEGFlavour) throws {
        var photo = SyntheticPhoto(width: 1600, height: 1200)
        let colors: [[UInt8]] = [[0, 0, 0], [255, 255, 255], [255, 0, 0], [0, 0, 255]]
        for y in 0..<1200 {
            for x in 0..<1600 {
                let color = colors[(y >= 600 ? 2 : 0) + (x >= 800 ? 1 : 0)]
                photo.rgba.replaceSubrange((y * 1600 + x) * 4..<(y * 1600 + x) * 4 + 3, with: color)
            }
        }
        let (result, webp) = try convert("extremes-\(flavour).jpg", try photo.jpeg(flavour, quality: 95))
        #expect(result.width == 1024 && result.height == 768)
        #expect(close(webp.color(0.25, 0.25), (0, 0, 0), tolerance: 6), "\(webp.color(0.25, 0.25))")
        #expect(close(webp.color(0.75, 0.25), (255, 255, 255), tolerance: 6), "\(webp.color(0.75, 0.25))")
        #expect(close(webp.color(0.25, 0.75), (255, 0, 0), tolerance: 12), "\(webp.color(0.25, 0.75))")
        #expect(close(webp.color(0.75, 0.75), (0, 0, 255), tolerance: 12), "\(webp.color(0.75, 0.75))")
    }

    @Test func resizedHEICIsUprightWithItsColours() throws {
        let path = directory.file("phone.heic")
        // irot for EXIF orientation 6: stored 1300x976 sideways, viewed 976x1300, resized to 769x1024.
        try SyntheticPhoto(width: 1300, height: 976).writeHEIC(to: path, orientation: 6)
        let output = directory.file("phone.webp")
        let result = try converter.convert(path, to: output, quality: .medium)
        let webp = try WebPFile(path: output)
        #expect(result.sourceWidth == 976 && result.sourceHeight == 1300)
        #expect(webp.image.width == 769 && webp.image.height == 1024, "\(webp.image.width)x\(webp.image.height)")
        #expect(close(webp.color(0.25, 0.25), blue, tolerance: 16))
        #expect(close(webp.color(0.75, 0.25), red, tolerance: 16))
        #expect(close(webp.color(0.25, 0.75), white, tolerance: 16))
        #expect(close(webp.color(0.75, 0.75), green, tolerance: 16))
    }
}
