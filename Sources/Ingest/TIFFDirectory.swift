/// The first image file directory (IFD0) of a TIFF structure: a TIFF file, or EXIF inside JPEG, PNG and WebP.
struct TIFFDirectory {
    /// Tag → values (SHORT and LONG values, the only types Reel reads).
    private(set) var values: [UInt16: [UInt32]] = [:]

    static let imageWidth: UInt16 = 256
    static let imageHeight: UInt16 = 257
    static let stripOffsets: UInt16 = 273
    static let orientation: UInt16 = 274
    static let stripByteCounts: UInt16 = 279
    static let tileOffsets: UInt16 = 324
    static let tileByteCounts: UInt16 = 325
    static let extraSamples: UInt16 = 338

    /// Parses `bytes` (which start with "II*\0" or "MM\0*"); nil when the structure is malformed.
    init?(_ bytes: ArraySlice<UInt8>) {
        let base = bytes.startIndex
        guard bytes.count >= 8 else { return nil }
        let little: Bool
        switch (bytes[base], bytes[base + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ offset: Int) -> UInt16? {
            guard offset >= 0, offset + 2 <= bytes.count else { return nil }
            let a = UInt16(bytes[base + offset]), b = UInt16(bytes[base + offset + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ offset: Int) -> UInt32? {
            guard let low = u16(little ? offset : offset + 2), let high = u16(little ? offset + 2 : offset) else {
                return nil
            }
            return UInt32(low) | UInt32(high) << 16
        }
        guard u16(2) == 42, let ifdOffset = u32(4).map(Int.init), let count = u16(ifdOffset) else { return nil }
        for i in 0..<Int(min(count, 512)) {
            let entry = ifdOffset + 2 + i * 12
            guard let tag = u16(entry), let type = u16(entry + 2), let n = u32(entry + 4) else { return nil }
            let size = type == 3 ? 2 : (type == 4 ? 4 : 0)
            guard size > 0, n > 0 else { continue }
            let total = Int(n) * size
            guard let dataOffset = total <= 4 ? entry + 8 : u32(entry + 8).map(Int.init) else { continue }
            var list: [UInt32] = []
            for k in 0..<Int(min(n, 65536)) {
                let at = dataOffset + k * size
                guard let value = size == 2 ? u16(at).map(UInt32.init) : u32(at) else { break }
                list.append(value)
            }
            values[tag] = list
        }
    }

    func first(_ tag: UInt16) -> UInt32? { values[tag]?.first }

    /// EXIF orientation 1–8, or 1 when absent or out of range.
    var orientation: Int {
        guard let value = first(Self.orientation), (1...8).contains(value) else { return 1 }
        return Int(value)
    }
}
