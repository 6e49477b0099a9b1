/// Bytes that differ from offset to offset within each 64 KB block and from block to block, so a part or chunk out of
/// place shows. Made by copying blocks: a debug build making 21 MB byte by byte held a pool thread for seconds.
package enum PatternBytes {
    package static func make(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        let block = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) ^ seed }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + block.count)
        var index = 0
        while bytes.count < count {
            bytes += block
            bytes[bytes.count - 1] = UInt8(truncatingIfNeeded: index)
            index += 1
        }
        return Array(bytes.prefix(count))
    }
}
