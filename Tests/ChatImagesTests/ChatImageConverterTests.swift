import ChatImages
import Foundation
import Ingest
import LibWebP
import MediaFixtures
import MediaModel
import TestTraits
import Testing

/// Real conversions of generated fixtures, judged on the output's properties.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ChatImageConverterTests {
    let directory: TemporaryDirectory
    let converter = ChatImageConverter()
    init() throws { directory = try TemporaryDirectory() }

    // Quadrant colours of SyntheticPhoto, viewed upright.
    let red = (220, 30, 30), green = (30, 200, 40), blue = (30, 40, 220), white = (240, 240, 240)

    func convert(_ name: String, _ bytes: [UInt8], quality: ImageQuality = .high) throws -> (ChatImageResult, WebPFile)
    {
        let source = try directory.write(name, bytes)
        let output = directory.file(name + ".webp")
        let result = try converter.convert(source, to: output, quality: quality)
        return (result, try WebPFile(path: output))
    }

    @Test(arguments: 1...8)
    func jpegOrientationIsAppliedSoThePhotoIsUpright(orientation: Int) throws {
        // Store the picture the way a camera would for this orientation, so the upright view is always the same.
        let upright = SyntheticPhoto(width: 64, height: 48)
        let inverse = [1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 8, 7: 7, 8: 6][orientation]!
        let stored = Orientation.apply(inverse, to: upright.rgba, width: 64, height: 48)
        var photo = SyntheticPhoto(width: stored.width, height: stored.height)
        photo.rgba = stored.pixels
        let (result, webp) = try convert("o\(orientation).jpg", try photo.jpeg(exifOrientation: orientation))
        #expect(result.orientation == orientation)
        #expect(webp.image.width == 64 && webp.image.height == 48)
        #expect(close(webp.color(0.25, 0.25), red))
        #expect(close(webp.color(0.75, 0.25), green))
        #expect(close(webp.color(0.25, 0.75), blue))
        #expect(close(webp.color(0.75, 0.75), white))
    }

    @Test func highCapsAt2048AndMediumAndLowAt1024() throws {
        var textured = SyntheticPhoto(width: 3000, height: 1000)
        textured.addNoise()
        let photo = try textured.jpeg()
        #expect(try convert("h.jpg", photo, quality: .high).0.width == 2048)
        let (medium, webp) = try convert("m.jpg", photo, quality: .medium)
        #expect(medium.width == 1024 && medium.height == 341)
        #expect(webp.image.width == 1024 && webp.image.height == 341)
        #expect(try convert("l.jpg", photo, quality: .low).0.width == 1024)
        #expect(try convert("l.jpg", photo, quality: .low).0.bytes < medium.bytes)
    }

    @Test func tinyImageIsNeverUpscaled() throws {
        let (result, webp) = try convert(
            "one.png", try SyntheticPhoto(width: 1, height: 1, color: (10, 20, 30, 255)).encoded(.png))
        #expect(result.width == 1 && result.height == 1)
        #expect(webp.image.width == 1 && webp.image.height == 1)
    }

    @Test func resizeAveragesFineDetailInsteadOfPickingPixels() throws {
        var photo = SyntheticPhoto(width: 2200, height: 2200)
        photo.makeCheckerboard()
        let (_, webp) = try convert("checker.png", try photo.encoded(.png), quality: .medium)
        // Nearest neighbour would keep pure black or white pixels; a real filter turns the checkerboard grey.
        let centre = webp.color(0.5, 0.5)
        #expect((90...170).contains(centre.r), "centre is \(centre)")
        #expect((90...170).contains(webp.color(0.3, 0.7).g))
    }

    @Test func alphaIsKeptWhenTranslucentAndDroppedWhenOpaque() throws {
        let (translucent, withAlpha) = try convert(
            "alpha.png", try SyntheticPhoto(width: 80, height: 60, alpha: true).encoded(.png))
        #expect(translucent.hasAlpha)
        #expect(withAlpha.image.hasAlpha)
        #expect(withAlpha.chunkNames.contains("ALPH"))
        #expect(withAlpha.color(0.98, 0.25).a < 40)
        #expect(withAlpha.color(0.25, 0.25).a > 245)
        let (opaque, noAlpha) = try convert("opaque.png", try SyntheticPhoto(width: 80, height: 60).encoded(.png))
        #expect(!opaque.hasAlpha)
        #expect(!noAlpha.image.hasAlpha)
        #expect(noAlpha.chunkNames == ["VP8 "])
    }

    @Test func metadataNeverReachesTheOutput() throws {
        // EXIF with orientation plus a ZIP archive appended after the JPEG's end.
        var jpeg = try SyntheticPhoto(width: 64, height: 48).jpeg(exifOrientation: 1)
        jpeg += [0x50, 0x4B, 0x03, 0x04] + Array("secret.txt GPS 51.5N".utf8)
        let (_, webp) = try convert("exif-zip.jpg", jpeg)
        #expect(webp.chunkNames.allSatisfy { ["VP8 ", "VP8L", "VP8X", "ALPH"].contains($0) }, "\(webp.chunkNames)")
        #expect(!webp.chunkNames.contains("EXIF") && !webp.chunkNames.contains("XMP "))
        let text = String(decoding: webp.bytes, as: UTF8.self)
        #expect(!text.contains("secret.txt") && !text.contains("PK\u{3}\u{4}"))
    }

    @Test func adobeCMYKJPEGKeepsItsColours() throws {
        let (_, webp) = try convert("cmyk.jpg", try SyntheticPhoto(width: 64, height: 48).jpeg(.adobeCMYK))
        #expect(close(webp.color(0.25, 0.25), red))
        #expect(close(webp.color(0.75, 0.25), green))
        #expect(close(webp.color(0.25, 0.75), blue))
        #expect(close(webp.color(0.75, 0.75), white))
    }

    @Test func progressiveAndGreyscaleJPEGsConvert() throws {
        let photo = SyntheticPhoto(width: 64, height: 48)
        let (_, progressive) = try convert("progressive.jpg", try photo.jpeg(.progressive))
        #expect(close(progressive.color(0.25, 0.75), blue))
        let (_, grey) = try convert("grey.jpg", try photo.jpeg(.grayscale))
        let c = grey.color(0.25, 0.25)
        #expect(abs(c.r - c.g) <= 6 && abs(c.g - c.b) <= 6)
    }

    @Test(arguments: [SyntheticPhoto.LibAVFormat.png, .png16, .pngGray, .bmp, .tiff])
    func libavFormatsConvertWithTheirColours(format: SyntheticPhoto.LibAVFormat) throws {
        let (result, webp) = try convert("photo-\(format)", try SyntheticPhoto(width: 64, height: 48).encoded(format))
        #expect(result.width == 64 && result.height == 48)
        if format == .pngGray {
            let c = webp.color(0.25, 0.25)
            #expect(abs(c.r - c.b) <= 6)
        } else {
            #expect(close(webp.color(0.25, 0.25), red))
            #expect(close(webp.color(0.75, 0.75), white))
        }
    }

    @Test(arguments: [SyntheticPhoto.LibAVFormat.pngPalette, .gif])
    func palettedFormatsConvert(format: SyntheticPhoto.LibAVFormat) throws {
        let (result, webp) = try convert("palette-\(format)", try SyntheticPhoto(width: 64, height: 48).encoded(format))
        #expect(result.width == 64 && result.height == 48)
        #expect(close(webp.color(0.25, 0.75), blue, tolerance: 40))
    }

    @Test func webpInputIsReencoded() throws {
        let (result, webp) = try convert("in.webp", try SyntheticPhoto(width: 64, height: 48, alpha: true).webp())
        #expect(result.sourceFormat == "webp")
        #expect(webp.image.hasAlpha)
        #expect(close(webp.color(0.25, 0.75), blue))
    }

    @Test func heicRotationFromTheContainerIsApplied() throws {
        let path = directory.file("phone.heic")
        // irot for EXIF orientation 6: the picture is stored sideways and must come out 48x64.
        try SyntheticPhoto(width: 64, height: 48).writeHEIC(to: path, orientation: 6)
        let output = directory.file("phone.webp")
        let result = try converter.convert(path, to: output, quality: .high)
        let webp = try WebPFile(path: output)
        #expect(result.sourceFormat == "heif")
        #expect(webp.image.width == 48 && webp.image.height == 64)
        // Rotating the stored picture 90° clockwise puts its bottom-left (blue) quadrant at the top left.
        #expect(close(webp.color(0.25, 0.25), blue, tolerance: 30))
        #expect(close(webp.color(0.75, 0.25), red, tolerance: 30))
    }
    @Test func heicConvertsWhenTheSideLimitIsLargerThanLibheifsInt() throws {
        // limits.json may allow a side past Int32.max; handing it to libheif's C int used to trap.
        let path = directory.file("wide-limit.heic")
        try SyntheticPhoto(width: 64, height: 48).writeHEIC(to: path, orientation: 1)
        var limits = AdmissionLimits.default
        limits.image.maxSide = .max
        let converter = ChatImageConverter(policy: AdmissionPolicy(limits: limits))
        let output = directory.file("wide-limit.webp")
        let result = try converter.convert(path, to: output, quality: .high)
        #expect(result.sourceFormat == "heif")
        let webp = try WebPFile(path: output)
        #expect(webp.image.width == 64 && webp.image.height == 48)
    }

    /// The worker gives the encoder a second thread when it has a spare core; the picture must not change with it.
    @Test func encoderThreadsMakeTheSameBytes() throws {
        let sources = [
            // resized, YCbCr planes
            try directory.write("big.jpg", try SyntheticPhoto(width: 2600, height: 1800).jpeg()),
            // RGBA with alpha
            try directory.write("alpha.png", try SyntheticImage.png(width: 900, height: 700, alpha: true)),
        ]
        for source in sources {
            let single = try ChatImageConverter().convert(source, quality: .high)
            let threaded = try ChatImageConverter(encoderThreads: true).convert(source, quality: .high)
            #expect(!single.webp.isEmpty)
            #expect(threaded.webp == single.webp, "\(source)")
            #expect(threaded.result == single.result)
        }
    }
}
