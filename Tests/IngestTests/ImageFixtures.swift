/// Hand-built image files: headers that lie, truncated structures and bombs. CRCs are not needed by the readers.
enum ImageFixtures {
    static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        be32(data.count) + Array(type.utf8) + data + [0, 0, 0, 0]
    }

    /// A PNG whose IHDR declares `width`x`height` (8-bit RGBA) with an IDAT of `idat` bytes.
    static func png(width: Int, height: Int, idat: [UInt8], end: Bool = true) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr = be32(width) + be32(height) + [8, 6, 0, 0, 0]
        return signature + chunk("IHDR", ihdr) + chunk("IDAT", idat) + (end ? chunk("IEND", []) : [])
    }
}
