/// Alpha handling around resampling: filter premultiplied pixels so transparent colours cannot bleed into edges.
enum AlphaPixels {
    static func isOpaque(_ rgba: [UInt8]) -> Bool {
        var index = 3
        while index < rgba.count {
            if rgba[index] != 255 { return false }
            index += 4
        }
        return true
    }

    static func premultiply(_ rgba: inout [UInt8]) {
        rgba.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = UInt32(p[i + 3])
                if a != 255 {
                    p[i] = UInt8((UInt32(p[i]) * a + 127) / 255)
                    p[i + 1] = UInt8((UInt32(p[i + 1]) * a + 127) / 255)
                    p[i + 2] = UInt8((UInt32(p[i + 2]) * a + 127) / 255)
                }
                i += 4
            }
        }
    }

    static func unpremultiply(_ rgba: inout [UInt8]) {
        rgba.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = UInt32(p[i + 3])
                if a != 255 && a != 0 {
                    p[i] = UInt8(min(255, (UInt32(p[i]) * 255 + a / 2) / a))
                    p[i + 1] = UInt8(min(255, (UInt32(p[i + 1]) * 255 + a / 2) / a))
                    p[i + 2] = UInt8(min(255, (UInt32(p[i + 2]) * 255 + a / 2) / a))
                }
                i += 4
            }
        }
    }
}
