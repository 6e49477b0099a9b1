/// CMYK (or YCCK, which libjpeg turns into CMYK) to RGB without a colour profile.
/// Adobe-marked files, the common case from Photoshop, store the samples inverted.
enum CMYKConversion {
    static func rgba(fromCMYK cmyk: [UInt8], inverted: Bool) -> [UInt8] {
        var output = [UInt8](repeating: 255, count: cmyk.count)
        cmyk.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                var i = 0
                while i < source.count {
                    // Amount of paper left white per channel, 0...255.
                    let k = UInt32(inverted ? source[i + 3] : 255 - source[i + 3])
                    for channel in 0..<3 {
                        let c = UInt32(inverted ? source[i + channel] : 255 - source[i + channel])
                        target[i + channel] = UInt8((c * k + 127) / 255)
                    }
                    i += 4
                }
            }
        }
        return output
    }
}
