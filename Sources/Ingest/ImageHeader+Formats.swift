extension ImageHeader {
    static func readPNG(_ b: [UInt8]) -> ImageHeader? {
        // A side of 0 is no picture (the image-header fuzz target found IHDRs of 0x19660808 and 8x0 read as complete
        // ones). Sides past PNG's 2^31 - 1 still read, so that admission names the pixel limit they break.
        guard b.count >= 33, b.ascii(12, 4) == "IHDR", let width = b.bigEndian32(16), let height = b.bigEndian32(20),
            width > 0, height > 0
        else {
            return nil
        }
        let colorType = b[25]
        var header = ImageHeader(
            width: width, height: height, orientation: 1, hasAlpha: colorType == 4 || colorType == 6, isComplete: false
        )
        var at = 8
        var frames = 0
        while let length = b.bigEndian32(at) {
            let type = b.ascii(at + 4, 4)
            let dataStart = at + 8
            guard dataStart + length + 4 <= b.count else { break }
            switch type {
            case "tRNS": header.hasAlpha = true
            case "eXIf": header.orientation = TIFFDirectory(b[dataStart..<dataStart + length])?.orientation ?? 1
            case "fcTL": frames += 1
            case "IEND": header.isComplete = true
            default: break
            }
            if header.isComplete { break }
            at = dataStart + length + 4
        }
        header.frameCount = max(1, frames)
        return header
    }

    static func readJPEG(_ b: [UInt8]) -> ImageHeader? {
        var header = ImageHeader(width: 0, height: 0, orientation: 1, hasAlpha: false, isComplete: false)
        var at = 2
        var sawFrame = false
        var sawExif = false
        var iccChunks: [Int: ArraySlice<UInt8>] = [:]
        // Every exit carries the ICC chunks gathered so far (a defer would run after the return value is taken).
        func finish(_ result: ImageHeader?) -> ImageHeader? {
            guard var result, !iccChunks.isEmpty else { return result }
            result.iccProfile = iccChunks.keys.sorted().flatMap { Array(iccChunks[$0]!) }
            return result
        }
        while at < b.count {
            guard b[at] == 0xFF else { return finish(sawFrame ? header : nil) }
            while at < b.count && b[at] == 0xFF { at += 1 }
            guard at < b.count else { break }
            let marker = b[at]
            at += 1
            if marker == 0xD9 {
                header.isComplete = true
                break
            }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 || marker == 0xD8 { continue }
            // A segment running past the end is a cut file, even before the frame header.
            guard let length = b.bigEndian16(at), length >= 2, at + length <= b.count else { return finish(header) }
            let segment = at + 2
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                // A side of 0 is no picture (the image-header fuzz target found 0x65295 read as one); a height of 0
                // waiting for a DNL marker is one libjpeg-turbo refuses too.
                guard let height = b.bigEndian16(segment + 1), let width = b.bigEndian16(segment + 3), width > 0,
                    height > 0
                else { return nil }
                if !sawFrame {
                    header.width = width
                    header.height = height
                    header.isCMYK = segment + 5 < b.count && b[segment + 5] == 4
                }
                sawFrame = true
            // An identifier must fit in its segment: an APP1 of length 2-7 named Exif in the bytes after it ranged
            // its TIFF data backwards, a trap (the image-header fuzz target, 2026-12-03).
            case 0xE1 where !sawExif && length >= 8 && b.ascii(segment, 6) == "Exif\0\0":
                sawExif = true
                header.orientation = TIFFDirectory(b[(segment + 6)..<(at + length)])?.orientation ?? 1
            case 0xEE where length >= 7 && b.ascii(segment, 5) == "Adobe":
                header.hasAdobeMarker = true
            case 0xE2 where length > 16 && b.ascii(segment, 12) == "ICC_PROFILE\0":
                iccChunks[Int(b[segment + 12])] = b[(segment + 14)..<(at + length)]
            default: break
            }
            at += length
            if marker == 0xDA {
                // Entropy-coded data runs until a marker that is neither stuffing (FF00) nor a restart (FFD0–D7).
                while at + 1 < b.count {
                    if b[at] == 0xFF && b[at + 1] != 0 && !(0xD0...0xD7).contains(b[at + 1]) && b[at + 1] != 0xFF {
                        break
                    }
                    at += 1
                }
                if at + 1 >= b.count { break }
            }
        }
        return finish(sawFrame || !header.isComplete ? header : nil)
    }

    static func readGIF(_ b: [UInt8]) -> ImageHeader? {
        // A side of 0 is no picture (the image-header fuzz target found 8x0 read as one).
        guard let width = b.littleEndian16(6), let height = b.littleEndian16(8), width > 0, height > 0, b.count >= 13
        else { return nil }
        var header = ImageHeader(width: width, height: height, orientation: 1, hasAlpha: false, isComplete: false)
        var at = 13
        if b[10] & 0x80 != 0 { at += 3 * (1 << (Int(b[10] & 0x07) + 1)) }
        func skipSubBlocks(_ position: inout Int) -> Bool {
            while position < b.count {
                let size = Int(b[position])
                position += 1
                if size == 0 { return true }
                position += size
            }
            return false
        }
        var frames = 0
        while at < b.count {
            switch b[at] {
            case 0x3B:
                header.isComplete = true
                header.frameCount = max(1, frames)
                return header
            case 0x21:
                if at + 5 < b.count && b[at + 1] == 0xF9 && b[at + 3] & 0x01 != 0 { header.hasAlpha = true }
                at += 2
                guard skipSubBlocks(&at) else { return header }
            case 0x2C:
                guard at + 10 <= b.count else { return header }
                frames += 1
                let packed = b[at + 9]
                at += 10
                if packed & 0x80 != 0 { at += 3 * (1 << (Int(packed & 0x07) + 1)) }
                at += 1
                guard skipSubBlocks(&at) else { return header }
            default:
                return header
            }
        }
        return header
    }

    static func readWebP(_ b: [UInt8]) -> ImageHeader? {
        guard b.count >= 30, let riffSize = b.littleEndian32(4) else { return nil }
        var header = ImageHeader(
            width: 0, height: 0, orientation: 1, hasAlpha: false, isComplete: riffSize + 8 <= b.count)
        var at = 12
        var found = false
        while at + 8 <= b.count, let size = b.littleEndian32(at + 4) {
            let type = b.ascii(at, 4)
            let data = at + 8
            switch type {
            case "VP8X" where data + 10 <= b.count:
                header.hasAlpha = b[data] & 0x10 != 0
                header.width = (b[data + 4..<data + 7].reversed().reduce(0) { $0 << 8 | Int($1) }) + 1
                header.height = (b[data + 7..<data + 10].reversed().reduce(0) { $0 << 8 | Int($1) }) + 1
                found = true
            case "VP8 " where !found && data + 10 <= b.count:
                // A 14-bit side of 0 is no picture (the image-header fuzz target's mutations found it read as one).
                guard let w = b.littleEndian16(data + 6), let h = b.littleEndian16(data + 8), w & 0x3FFF > 0,
                    h & 0x3FFF > 0
                else { return nil }
                header.width = w & 0x3FFF
                header.height = h & 0x3FFF
                found = true
            case "VP8L" where !found && data + 5 <= b.count:
                guard b[data] == 0x2F, let bits = b.littleEndian32(data + 1) else { return nil }
                header.width = (bits & 0x3FFF) + 1
                header.height = ((bits >> 14) & 0x3FFF) + 1
                header.hasAlpha = (bits >> 28) & 1 != 0
                found = true
            case "EXIF" where data + size <= b.count:
                header.orientation = TIFFDirectory(b[data..<data + size])?.orientation ?? 1
            case "ANIM":
                header.frameCount = 2
            default: break
            }
            at = data + size + (size & 1)
        }
        return found ? header : nil
    }

    static func readBMP(_ b: [UInt8]) -> ImageHeader? {
        guard let fileSize = b.littleEndian32(2), let width = b.littleEndian32(18),
            let rawHeight = b.littleEndian32(22),
            let bitCount = b.littleEndian16(28)
        else { return nil }
        let height = rawHeight > Int(Int32.max) ? (1 << 32) - rawHeight : rawHeight
        guard width > 0, width <= Int(Int32.max), height > 0 else { return nil }
        return ImageHeader(
            width: width, height: height, orientation: 1, hasAlpha: bitCount == 32, isComplete: fileSize <= b.count)
    }

    static func readTIFF(_ b: [UInt8]) -> ImageHeader? {
        guard let directory = TIFFDirectory(b[...]), let width = directory.first(TIFFDirectory.imageWidth),
            let height = directory.first(TIFFDirectory.imageHeight), width > 0, height > 0
        else { return nil }
        var end = 0
        for (offsetsTag, countsTag) in [
            (TIFFDirectory.stripOffsets, TIFFDirectory.stripByteCounts),
            (TIFFDirectory.tileOffsets, TIFFDirectory.tileByteCounts),
        ] {
            guard let offsets = directory.values[offsetsTag], let counts = directory.values[countsTag] else { continue }
            for (offset, count) in zip(offsets, counts) { end = max(end, Int(offset) + Int(count)) }
        }
        return ImageHeader(
            width: Int(width), height: Int(height), orientation: directory.orientation,
            hasAlpha: directory.values[TIFFDirectory.extraSamples] != nil, isComplete: end > 0 && end <= b.count
        )
    }

    /// HEIF keeps sizes in `ispe` properties; the largest one bounds every image in the file.
    /// HEIF: walks the ISO-BMFF boxes (never scans raw bytes, so pixel data cannot fake a size). The picture's
    /// size is the largest `ispe` property in meta/iprp/ipco (the primary grid; thumbnails and tiles are smaller).
    static func readHEIF(_ b: [UInt8]) -> ImageHeader? {
        var header = ImageHeader(width: 0, height: 0, orientation: 1, hasAlpha: false, isComplete: false)
        var end = 0
        var complete = true
        for box in isoBoxes(b, from: 0, to: b.count) {
            if box.end > b.count { complete = false }
            end = box.end
            guard box.type == "meta", box.end <= b.count else { continue }
            for child in isoBoxes(b, from: box.payload + 4, to: box.end) where child.type == "iprp" {
                for container in isoBoxes(b, from: child.payload, to: child.end) where container.type == "ipco" {
                    for property in isoBoxes(b, from: container.payload, to: container.end) {
                        switch property.type {
                        case "ispe":
                            // Two 32-bit sides: their product can pass Int.max, never UInt64's.
                            if let w = b.bigEndian32(property.payload + 4), let h = b.bigEndian32(property.payload + 8),
                                UInt64(w) * UInt64(h) > UInt64(header.width) * UInt64(header.height)
                            {
                                header.width = w
                                header.height = h
                            }
                        case "auxC":
                            if b.ascii(property.payload + 4, property.end - property.payload - 4).contains("alpha") {
                                header.hasAlpha = true
                            }
                        default: break
                        }
                    }
                }
            }
        }
        guard header.width > 0, header.height > 0 else { return complete && end > 0 ? nil : header }
        header.isComplete = complete && end <= b.count
        return header
    }

    /// The boxes laid out between `from` and `to`: type, payload start and end (which may run past the data).
    static func isoBoxes(_ b: [UInt8], from: Int, to: Int) -> [(type: String, payload: Int, end: Int)] {
        var boxes: [(type: String, payload: Int, end: Int)] = []
        var at = from
        while at <= min(to, b.count) - 8 {
            guard let size32 = b.bigEndian32(at) else { break }
            let type = b.ascii(at + 4, 4)
            var payload = at + 8
            var size = size32
            if size32 == 1 {
                guard let high = b.bigEndian32(at + 8), let low = b.bigEndian32(at + 12) else { break }
                size = high << 32 | low
                payload = at + 16
            } else if size32 == 0 {
                size = to - at
            }
            guard size >= payload - at else { break }
            // A 64-bit size may claim up to 2^63 bytes: such a box ends past any data (Int.max), and the walk with it.
            let (end, overflow) = at.addingReportingOverflow(size)
            boxes.append((type, payload, overflow ? Int.max : end))
            if overflow { break }
            at = end
        }
        return boxes
    }
}
