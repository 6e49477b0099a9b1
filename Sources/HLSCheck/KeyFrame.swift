/// What the first bytes of a video sample say about it: whether it opens with an IDR (H.264 type 5, HEVC types
/// 19/20) or an AV1 key frame, and which unit was seen, so a finding can say what was there instead.
package struct KeyFrame: Equatable {
    package var isKey: Bool
    /// "NAL type 5", "NAL type 1", "AV1 KEY_FRAME", "AV1 INTER_FRAME"…
    package var seen: String

    /// Classifies the first picture-carrying unit in `sample`, which may be only the first bytes of a sample of
    /// `sampleSize` bytes. Parameter sets, SEI and delimiters before it are skipped: x264 puts an SEI before the
    /// first IDR.
    package static func classify(
        _ sample: [UInt8], sampleSize: Int? = nil, format: String, configuration: CodecConfiguration
    ) -> KeyFrame {
        let size = sampleSize ?? sample.count
        switch format {
        case "avc1", "avc3":
            return nal(
                sample, size: size, lengthSize: configuration.nalLengthSize ?? 4, type: { $0 & 0x1F },
                isPicture: { (1...5).contains($0) }, isIDR: { $0 == 5 })
        case "hvc1", "hev1":
            return nal(
                sample, size: size, lengthSize: configuration.nalLengthSize ?? 4, type: { ($0 >> 1) & 0x3F },
                isPicture: { $0 <= 31 }, isIDR: { $0 == 19 || $0 == 20 })
        case "av01":
            return AV1.keyFrame(in: sample, reducedStillPicture: configuration.av1ReducedStillPicture)
        default:
            return KeyFrame(isKey: false, seen: "a '\(format)' sample, which this checker cannot read")
        }
    }

    private static func nal(
        _ sample: [UInt8], size: Int, lengthSize: Int, type: (UInt8) -> UInt8, isPicture: (UInt8) -> Bool,
        isIDR: (UInt8) -> Bool
    ) -> KeyFrame {
        var offset = 0
        var seen: [UInt8] = []
        while offset + lengthSize < sample.count {
            var length = 0
            for index in offset..<offset + lengthSize { length = length << 8 | Int(sample[index]) }
            let start = offset + lengthSize
            guard length > 0, start < sample.count else { break }
            guard start + length <= size else {
                return KeyFrame(isKey: false, seen: "a NAL unit of \(length) bytes in a sample of \(size)")
            }
            let nalType = type(sample[start])
            seen.append(nalType)
            if isPicture(nalType) {
                return KeyFrame(isKey: isIDR(nalType), seen: "NAL type \(nalType)")
            }
            offset = start + length
        }
        let list = seen.map(String.init).joined(separator: ", ")
        return KeyFrame(isKey: false, seen: seen.isEmpty ? "no NAL unit" : "no picture NAL unit (types \(list))")
    }
}

/// The few AV1 OBU facts the checker needs (AV1 bitstream specification §5.3 and §5.9).
enum AV1 {
    static let sequenceHeader: UInt8 = 1
    static let frameHeader: UInt8 = 3
    static let frame: UInt8 = 6

    struct OBU {
        var type: UInt8
        var payload: ArraySlice<UInt8>
    }

    /// The OBUs in `bytes`, in order; stops at the first malformed header.
    static func units(in bytes: [UInt8]) -> [OBU] {
        var result: [OBU] = []
        var offset = 0
        while offset < bytes.count {
            let header = bytes[offset]
            let type = (header >> 3) & 0x0F
            var position = offset + 1 + (header & 0x04 != 0 ? 1 : 0)
            var size = bytes.count - position
            if header & 0x02 != 0 {
                size = 0
                var shift = 0
                while position < bytes.count, shift < 56 {
                    let byte = bytes[position]
                    size |= Int(byte & 0x7F) << shift
                    position += 1
                    shift += 7
                    if byte & 0x80 == 0 { break }
                }
            }
            guard position <= bytes.count, size >= 0 else { break }
            // The last unit may be cut short when only the start of a sample was read: keep what is there.
            result.append(OBU(type: type, payload: bytes[position..<min(bytes.count, position + size)]))
            offset = position + size
        }
        return result
    }

    static func firstOBU(ofType type: UInt8, in bytes: [UInt8]) -> OBU? {
        units(in: bytes).first { $0.type == type }
    }

    /// A sample is a key frame when its first frame header is not `show_existing_frame` and has
    /// `frame_type == KEY_FRAME`; with a reduced still-picture header every frame is a key frame.
    static func keyFrame(in sample: [UInt8], reducedStillPicture: Bool) -> KeyFrame {
        var reduced = reducedStillPicture
        for unit in units(in: sample) {
            if unit.type == sequenceHeader, let first = unit.payload.first { reduced = (first >> 3) & 1 == 1 }
            guard unit.type == frameHeader || unit.type == frame else { continue }
            if reduced { return KeyFrame(isKey: true, seen: "AV1 still picture") }
            guard let first = unit.payload.first else { break }
            if first & 0x80 != 0 { return KeyFrame(isKey: false, seen: "AV1 show_existing_frame") }
            let frameType = (first >> 5) & 0x03
            let names = ["KEY_FRAME", "INTER_FRAME", "INTRA_ONLY_FRAME", "SWITCH_FRAME"]
            return KeyFrame(isKey: frameType == 0, seen: "AV1 " + names[Int(frameType)])
        }
        return KeyFrame(isKey: false, seen: "no AV1 frame header")
    }
}
