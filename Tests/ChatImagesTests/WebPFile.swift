import Foundation
import LibWebP

/// What a test needs to know about a written WebP: its RIFF chunks and its pixels through libwebp's own decoder.
struct WebPFile {
    let bytes: [UInt8]
    let image: WebPImage

    init(path: String) throws {
        bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        image = try WebPImage(decoding: bytes)
    }

    var chunkNames: [String] {
        var names: [String] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            names.append(String(decoding: bytes[offset..<offset + 4], as: UTF8.self))
            let size =
                Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(
                    bytes[offset + 7]) << 24
            offset += 8 + size + (size & 1)
        }
        return names
    }

    /// The payload of the first chunk named `name`.
    func chunk(_ name: String) -> [UInt8]? {
        var offset = 12
        while offset + 8 <= bytes.count {
            let size =
                Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(
                    bytes[offset + 7]) << 24
            if String(decoding: bytes[offset..<offset + 4], as: UTF8.self) == name {
                return Array(bytes[offset + 8..<min(bytes.count, offset + 8 + size)])
            }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    /// The colour at a fraction of the width and height, e.g. (0.25, 0.25) for the centre of the top-left quadrant.
    func color(_ fx: Double, _ fy: Double) -> (r: Int, g: Int, b: Int, a: Int) {
        let x = min(image.width - 1, Int(Double(image.width) * fx)),
            y = min(image.height - 1, Int(Double(image.height) * fy))
        let i = (y * image.width + x) * 4
        return (Int(image.rgba[i]), Int(image.rgba[i + 1]), Int(image.rgba[i + 2]), Int(image.rgba[i + 3]))
    }
}

func close(_ a: (r: Int, g: Int, b: Int, a: Int), _ b: (Int, Int, Int), tolerance: Int = 24) -> Bool {
    abs(a.r - b.0) <= tolerance && abs(a.g - b.1) <= tolerance && abs(a.b - b.2) <= tolerance
}
