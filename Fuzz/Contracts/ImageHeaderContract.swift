internal import ChatImages
internal import Ingest
internal import MediaModel

/// An upload's image headers, read before any decoder sees them (EXIF, ICC, PNG chunks, ISO boxes): a header that
/// reads has a size (unless the file is cut short), an orientation of 1-8, at least one frame and an ICC profile no longer than the file; any prefix
/// of the file reads without trapping, as an upload cut short does; and the ICC
/// profile's tag table, read to decide whether the WebP keeps it, never traps.
enum ImageHeaderContract {
    static let target = FuzzTarget(
        name: "image-header", contract: "a read header has a size, orientation 1-8, a frame, an ICC inside the file"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        let format = SniffedFormat.sniff(Array(bytes.prefix(4096)))
        if let header = ImageHeader.read(format, from: bytes) {
            // A file cut short before its size may read without one (admission then says it is truncated).
            try expect(
                (header.width > 0 && header.height > 0 || !header.isComplete) && (1...8).contains(header.orientation)
                    && header.frameCount >= 1 && (header.iccProfile?.count ?? 0) <= bytes.count,
                "a \(format) header read as \(header)")
            // The converter reads the profile's tag table to decide whether to keep it: whatever it claims.
            if let profile = header.iccProfile { _ = ColorProfile.isSRGB(profile) }
        }
        _ = ImageHeader.read(format, from: Array(bytes.prefix(bytes.count / 2)))
    }
}
