import LibWebP
import TestTraits
import Testing

@Suite(.offThePool, .timeLimit(.minutes(5))) struct WebPEncoderTests {
    /// A gradient with an alpha ramp, so both colour and alpha survive only if the encoder keeps them.
    func gradient(width: Int, height: Int, alpha: Bool) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels[i] = UInt8(x * 255 / max(width - 1, 1))
                pixels[i + 1] = UInt8(y * 255 / max(height - 1, 1))
                pixels[i + 2] = 128
                pixels[i + 3] = alpha ? UInt8(x * 255 / max(width - 1, 1)) : 255
            }
        }
        return pixels
    }

    func chunkNames(_ data: [UInt8]) -> [String] {
        var names: [String] = []
        var offset = 12
        while offset + 8 <= data.count {
            names.append(String(decoding: data[offset..<offset + 4], as: UTF8.self))
            let size =
                Int(data[offset + 4]) | Int(data[offset + 5]) << 8 | Int(data[offset + 6]) << 16 | Int(data[offset + 7])
                << 24
            offset += 8 + size + (size & 1)
        }
        return names
    }

    @Test func encodesDecodableLossyFileWithAlpha() throws {
        let picture = try WebPPicture(
            rgba: gradient(width: 64, height: 48, alpha: true), width: 64, height: 48, stride: 64 * 4, hasAlpha: true)
        let data = try WebPEncoder(settings: WebPEncoderSettings(quality: 80)).encode(picture)
        #expect(Array(data.prefix(4)) == Array("RIFF".utf8))
        let image = try WebPImage(decoding: data)
        #expect(image.width == 64 && image.height == 48)
        #expect(image.hasAlpha)
        #expect(chunkNames(data).contains("ALPH"))
        #expect(!chunkNames(data).contains("EXIF") && !chunkNames(data).contains("XMP "))
        // Left edge transparent, right edge opaque: the alpha ramp survived lossy coding.
        #expect(image.rgba[3] < 20)
        #expect(image.rgba[63 * 4 + 3] > 235)
    }

    @Test func opaqueImportWritesNoAlphaPlane() throws {
        let picture = try WebPPicture(
            rgba: gradient(width: 16, height: 16, alpha: false), width: 16, height: 16, stride: 64, hasAlpha: false)
        let data = try WebPEncoder(settings: WebPEncoderSettings(quality: 60)).encode(picture)
        #expect(try WebPImage.features(of: data).hasAlpha == false)
        #expect(chunkNames(data) == ["VP8 "])
    }

    @Test func rejectsShortBufferNamingTheCall() {
        #expect(throws: WebPError.self) {
            _ = try WebPPicture(rgba: [0, 0, 0], width: 4, height: 4, stride: 16, hasAlpha: true)
        }
        do {
            _ = try WebPPicture(rgba: [0, 0, 0], width: 4, height: 4, stride: 16, hasAlpha: true)
        } catch {
            #expect(error.function == "WebPPictureImportRGBA")
        }
    }

    @Test func rejectsTruncatedBitstream() throws {
        let picture = try WebPPicture(
            rgba: gradient(width: 32, height: 32, alpha: false), width: 32, height: 32, stride: 128, hasAlpha: false)
        let data = try WebPEncoder(settings: WebPEncoderSettings(quality: 80)).encode(picture)
        #expect(throws: WebPError.self) { _ = try WebPImage(decoding: Array(data.prefix(data.count / 2))) }
    }

    @Test func rejectsOutOfRangeQuality() throws {
        let picture = try WebPPicture(
            rgba: gradient(width: 8, height: 8, alpha: false), width: 8, height: 8, stride: 32, hasAlpha: false)
        #expect(throws: WebPError.self) {
            _ = try WebPEncoder(settings: WebPEncoderSettings(quality: 150)).encode(picture)
        }
    }
}
