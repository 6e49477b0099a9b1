/// One ISO BMFF box header (ISO/IEC 14496-12 §4.2): where the box starts, how long its header is and where it ends.
/// Offsets are in whatever space the bytes came from (a buffer, or a whole file when `base` is given).
package struct BoxHeader: Equatable {
    package let type: String
    package let start: Int64
    package let headerSize: Int
    package let size: Int64

    package var payloadStart: Int64 { start + Int64(headerSize) }
    package var end: Int64 { start + size }

    /// The header at `offset` of `bytes` (which begin at file offset `base`), for a box that may not reach past
    /// `limit` (a file offset). A size of 0 means "to the limit".
    package static func parse(
        _ bytes: [UInt8], at offset: Int = 0, base: Int64 = 0, limit: Int64
    ) throws(MediaParseError) -> BoxHeader {
        var cursor = ByteCursor(bytes, from: offset)
        let start = base + Int64(offset)
        let small = try cursor.u32()
        let type = try cursor.fourCC()
        var headerSize = 8
        var size = Int64(small)
        if small == 1 {
            let large = try cursor.u64()
            guard large <= UInt64(Int64.max) else {
                throw MediaParseError("box '\(type)' at \(start) has an impossible size")
            }
            size = Int64(large)
            headerSize = 16
        } else if small == 0 {
            size = limit - start
        }
        if type == "uuid" { headerSize += 16 }
        guard size >= Int64(headerSize) else {
            throw MediaParseError("box '\(type)' at \(start) is \(size) bytes, shorter than its header")
        }
        guard start + size <= limit else {
            throw MediaParseError("box '\(type)' at \(start) claims \(size) bytes but only \(limit - start) remain")
        }
        return BoxHeader(type: type, start: start, headerSize: headerSize, size: size)
    }

    /// The boxes laid end to end in `bytes[from..<to]` (a buffer holding the whole range).
    package static func children(of bytes: [UInt8], from: Int, to: Int) throws(MediaParseError) -> [BoxHeader] {
        var result: [BoxHeader] = []
        var offset = from
        while offset + 8 <= to {
            let header = try parse(bytes, at: offset, limit: Int64(to))
            result.append(header)
            offset = Int(header.end)
        }
        return result
    }
}

extension Array where Element == BoxHeader {
    func first(_ type: String) -> BoxHeader? { first { $0.type == type } }
}
