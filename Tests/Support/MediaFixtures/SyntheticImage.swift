internal import LibAV

/// Generated still images encoded with Reel's own LibAV (PNG and JPEG), plus EXIF splicing for orientation tests.
package enum SyntheticImage {
    /// A PNG of a gradient: RGBA with a translucent ramp when `alpha`, otherwise RGB with no alpha channel.
    package static func png(width: Int, height: Int, alpha: Bool) throws -> [UInt8] {
        try encode(codec: "png", width: width, height: height, format: alpha ? .rgba : .rgb24) {
            try $0.fillRGBAPattern(alpha: alpha)
        }
    }

    /// A baseline JPEG of the test pattern.
    package static func jpeg(width: Int, height: Int) throws -> [UInt8] {
        try encode(codec: "mjpeg", width: width, height: height, format: .yuvj420p) { try $0.fillTestPattern(index: 0) }
    }

    /// Inserts an EXIF APP1 segment with the given orientation right after the JPEG's SOI marker.
    package static func jpeg(_ jpeg: [UInt8], exifOrientation: Int) -> [UInt8] {
        // Little-endian TIFF with one IFD entry: tag 274 (Orientation), SHORT, count 1.
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]
        tiff += [0x01, 0x00, 0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00]
        tiff += [UInt8(exifOrientation), 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    /// A hostile PNG: its IHDR declares `width`x`height` RGBA but its IDAT is a few hundred zero bytes.
    package static func pngBomb(width: Int, height: Int) -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            be32(data.count) + Array(type.utf8) + data + [0, 0, 0, 0]
        }
        let header = be32(width) + be32(height) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", [UInt8](repeating: 0, count: 300)) + chunk("IEND", [])
    }

    /// Encodes one prepared frame with a still-image encoder.
    static func encodeStill(codec: String, frame: Frame) throws(AVError) -> [UInt8] {
        let encoder = try Encoder(
            EncoderSettings(
                codec: codec,
                kind: .video(
                    width: frame.width, height: frame.height, pixelFormat: frame.pixelFormat, frameRate: Rational(1, 1)),
                timeBase: Rational(1, 1), globalHeader: false
            ))
        frame.pts = 0
        _ = try encoder.send(frame)
        _ = try encoder.send(nil)
        let packet = try Packet()
        var bytes: [UInt8] = []
        while try encoder.receive(into: packet) == .output {
            bytes += packet.bytes
            packet.unref()
        }
        return bytes
    }

    private static func encode(
        codec: String, width: Int, height: Int, format: PixelFormat, fill: (Frame) throws -> Void
    ) throws -> [UInt8] {
        do {
            let frame = try Frame(width: width, height: height, pixelFormat: format)
            try fill(frame)
            return try encodeStill(codec: codec, frame: frame)
        } catch let error as AVError {
            throw SyntheticMediaError(path: "<\(codec) in memory>", message: error.description)
        }
    }
}
