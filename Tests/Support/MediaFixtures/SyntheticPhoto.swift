internal import LibAV
internal import LibHeif
internal import LibTurboJPEG
internal import LibWebP

/// Generated photos in every format the chat-image converter accepts, from one RGBA picture.
package struct SyntheticPhoto: Sendable {
    package let width: Int
    package let height: Int
    /// Packed RGBA.
    package var rgba: [UInt8]

    /// A picture with a known layout: a red top-left quadrant, green top-right, blue bottom-left, white bottom-right,
    /// so orientation and colour can be checked in the output. `alpha` fades the right half to transparent.
    package init(width: Int, height: Int, alpha: Bool = false) {
        self.width = width
        self.height = height
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let right = x >= width / 2, bottom = y >= height / 2
                let color: (UInt8, UInt8, UInt8) =
                    switch (right, bottom) {
                    case (false, false): (220, 30, 30)
                    case (true, false): (30, 200, 40)
                    case (false, true): (30, 40, 220)
                    case (true, true): (240, 240, 240)
                    }
                let i = (y * width + x) * 4
                pixels[i] = color.0
                pixels[i + 1] = color.1
                pixels[i + 2] = color.2
                pixels[i + 3] = alpha && right ? UInt8(255 - 255 * (x - width / 2) / max(1, width - width / 2)) : 255
            }
        }
        rgba = pixels
    }

    /// A uniform picture of one colour.
    package init(width: Int, height: Int, color: (UInt8, UInt8, UInt8, UInt8)) {
        self.width = width
        self.height = height
        rgba = Array([[color.0, color.1, color.2, color.3]].joined()).repeated(width * height)
    }

    /// Replaces the pixels with a one-pixel checkerboard of black and white (the worst case for a resampler).
    package mutating func makeCheckerboard() {
        for y in 0..<height {
            for x in 0..<width {
                let v: UInt8 = (x + y) % 2 == 0 ? 0 : 255
                let i = (y * width + x) * 4
                rgba[i] = v
                rgba[i + 1] = v
                rgba[i + 2] = v
                rgba[i + 3] = 255
            }
        }
    }

    /// Adds deterministic noise of ±`amplitude` to every colour channel, so an encoder's quality setting shows in
    /// the size of what it writes (flat quadrants cost a few hundred bytes at any quality).
    package mutating func addNoise(amplitude: Int = 24, seed: UInt64 = 1) {
        var state = seed
        for i in rgba.indices where i % 4 != 3 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let offset = Int(state >> 33) % (2 * amplitude + 1) - amplitude
            rgba[i] = UInt8(clamping: Int(rgba[i]) + offset)
        }
    }

    package enum JPEGFlavour: Sendable {
        /// Baseline 4:4:4; progressive 4:2:0; `chroma422` baseline 4:2:2, as many cameras write.
        case baseline, progressive, chroma422, grayscale
        /// Adobe-style inverted CMYK (written as YCCK with an Adobe marker, as Photoshop does).
        case adobeCMYK
    }

    package func jpeg(
        _ flavour: JPEGFlavour = .baseline, quality: Int = 92, exifOrientation: Int? = nil
    ) throws -> [UInt8] {
        do {
            let compressor = try JPEGCompressor()
            var bytes: [UInt8]
            switch flavour {
            case .baseline:
                bytes = try compressor.compress(
                    rgba, width: width, height: height, input: .rgba, quality: quality, subsampling: .s444)
            case .progressive:
                bytes = try compressor.compress(
                    rgba, width: width, height: height, input: .rgba, quality: quality, progressive: true)
            case .chroma422:
                bytes = try compressor.compress(
                    rgba, width: width, height: height, input: .rgba, quality: quality, subsampling: .s422)
            case .grayscale:
                bytes = try compressor.compress(
                    rgba, width: width, height: height, input: .rgba, quality: quality, subsampling: .gray)
            case .adobeCMYK:
                bytes = try compressor.compress(
                    invertedCMYK(), width: width, height: height, input: .cmyk, quality: quality, subsampling: .s444)
            }
            if let exifOrientation { bytes = SyntheticImage.jpeg(bytes, exifOrientation: exifOrientation) }
            return bytes
        } catch {
            throw SyntheticMediaError(path: "<jpeg in memory>", message: error.description)
        }
    }

    /// Naive RGB → CMYK, stored inverted as Adobe applications do.
    func invertedCMYK() -> [UInt8] {
        var output = [UInt8](repeating: 0, count: rgba.count)
        for i in stride(from: 0, to: rgba.count, by: 4) {
            let r = Double(rgba[i]) / 255, g = Double(rgba[i + 1]) / 255, b = Double(rgba[i + 2]) / 255
            let k = 1 - max(r, g, b)
            let scale = k < 1 ? 1 / (1 - k) : 0
            let c = (1 - r - k) * scale, m = (1 - g - k) * scale, y = (1 - b - k) * scale
            output[i] = UInt8(((1 - c) * 255).rounded())
            output[i + 1] = UInt8(((1 - m) * 255).rounded())
            output[i + 2] = UInt8(((1 - y) * 255).rounded())
            output[i + 3] = UInt8(((1 - k) * 255).rounded())
        }
        return output
    }

    /// Still formats libav writes: PNG in several pixel formats, GIF, BMP and TIFF.
    package enum LibAVFormat: Sendable {
        case png, png16, pngPalette, pngGray, gif, bmp, tiff
    }

    package func encoded(_ format: LibAVFormat) throws -> [UInt8] {
        let (codec, pixelFormat): (String, PixelFormat) =
            switch format {
            case .png: ("png", .rgba)
            case .png16: ("png", .rgba64)
            case .pngPalette: ("png", .pal8)
            case .pngGray: ("png", .gray)
            case .gif: ("gif", .pal8)
            case .bmp: ("bmp", .bgr24)
            case .tiff: ("tiff", .rgba)
            }
        do {
            let source = try Frame(rgba: rgba, width: width, height: height)
            // libav's GIF encoder leaves the trailer byte to the muxer; a file on disk has it.
            if pixelFormat == .pal8 {
                return try SyntheticImage.encodeStill(codec: codec, frame: try source.palettized())
                    + (codec == "gif" ? [0x3B] : [])
            }
            let converter = try Scaler(
                inputWidth: width, inputHeight: height, inputFormat: .rgba,
                outputWidth: width, outputHeight: height, outputFormat: pixelFormat, filter: .bicubic)
            return try SyntheticImage.encodeStill(codec: codec, frame: try converter.scale(source))
        } catch {
            throw SyntheticMediaError(path: "<\(codec) in memory>", message: error.description)
        }
    }

    package func webp(quality: Float = 90) throws -> [UInt8] {
        do {
            let picture = try WebPPicture(rgba: rgba, width: width, height: height, stride: width * 4, hasAlpha: true)
            return try WebPEncoder(settings: WebPEncoderSettings(quality: quality)).encode(picture)
        } catch {
            throw SyntheticMediaError(path: "<webp in memory>", message: error.description)
        }
    }

    /// HEIC written by libheif's HEVC encoder; `orientation` (EXIF numbering) becomes irot/imir boxes.
    package func writeHEIC(to path: String, orientation: Int = 1) throws {
        do {
            let context = try HeifContext()
            let image = try HeifImage(pixels: rgba, width: width, height: height, hasAlpha: false)
            try context.encode(image, quality: 90, orientation: orientation)
            try context.write(to: path)
        } catch {
            throw SyntheticMediaError(path: path, message: error.description)
        }
    }
}

extension Array {
    func repeated(_ count: Int) -> [Element] { Array([[Element]](repeating: self, count: count).joined()) }
}
