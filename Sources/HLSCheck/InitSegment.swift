/// What a Media Initialization Section (the file EXT-X-MAP names) declares: its brands and its tracks, each with
/// its handler, timescale, picture size, sample entry, codec string, fragment defaults and, for video, colour tags.
package struct InitSegment {
    package struct Track {
        package var id: UInt32
        var handler: String
        var timescale: UInt32 = 0
        /// tkhd width and height (16.16 fixed point), the size a player displays.
        var displayWidth = 0, displayHeight = 0
        /// The sample entry's four-character code; for encrypted entries, the original format from 'frma'.
        package var format: String?
        /// The sample entry's coded picture size.
        var codedWidth = 0, codedHeight = 0
        package var configuration: CodecConfiguration?
        package var defaults = SampleDefaults()
        /// Video only: the sample entry's `colr` box, else (H.264) the SPS VUI, else nothing tagged.
        package var colour = VideoColour()

        /// Bits per luma sample, from the codec configuration record; nil when it does not say.
        package var bitDepth: Int? { configuration?.bitDepth }

        package var isVideo: Bool { handler == "vide" }
        var isAudio: Bool { handler == "soun" }
    }

    var brands: [String] = []
    package var tracks: [Track] = []
    var hasMovieExtends = false

    var video: Track? { tracks.first(where: \.isVideo) }

    /// Reads `bytes`, a whole init segment.
    /// - Throws: `MediaParseError` when there is no moov, or a box runs past its parent.
    package static func parse(_ bytes: [UInt8]) throws(MediaParseError) -> InitSegment {
        var result = InitSegment()
        let top = try BoxHeader.children(of: bytes, from: 0, to: bytes.count)
        if let ftyp = top.first("ftyp") {
            var cursor = ByteCursor(bytes, from: Int(ftyp.payloadStart), to: Int(ftyp.end))
            result.brands.append(try cursor.fourCC())
            try cursor.skip(4)
            while cursor.remaining >= 4 { result.brands.append(try cursor.fourCC()) }
        }
        guard let moov = top.first("moov") else { throw MediaParseError("no 'moov' box") }
        var defaults: [UInt32: SampleDefaults] = [:]
        for box in try children(bytes, moov) {
            if box.type == "trak" { result.tracks.append(try track(bytes, box)) }
            if box.type == "mvex" {
                result.hasMovieExtends = true
                for trex in try children(bytes, box) where trex.type == "trex" {
                    var cursor = ByteCursor(bytes, from: Int(trex.payloadStart) + 4, to: Int(trex.end))
                    let id = try cursor.u32()
                    defaults[id] = SampleDefaults(
                        descriptionIndex: try cursor.u32(), duration: try cursor.u32(),
                        size: try cursor.u32(), flags: try cursor.u32())
                }
            }
        }
        for index in result.tracks.indices {
            if let found = defaults[result.tracks[index].id] { result.tracks[index].defaults = found }
        }
        return result
    }

    private static func children(
        _ bytes: [UInt8], _ box: BoxHeader, skipping: Int = 0
    ) throws(MediaParseError) -> [BoxHeader] {
        try BoxHeader.children(of: bytes, from: Int(box.payloadStart) + skipping, to: Int(box.end))
    }

    private static func track(_ bytes: [UInt8], _ trak: BoxHeader) throws(MediaParseError) -> Track {
        var track = Track(id: 0, handler: "")
        let boxes = try children(bytes, trak)
        if let tkhd = boxes.first("tkhd") {
            var cursor = ByteCursor(bytes, from: Int(tkhd.payloadStart), to: Int(tkhd.end))
            let version = try cursor.u8()
            try cursor.skip(3 + (version == 1 ? 16 : 8))
            track.id = try cursor.u32()
            try cursor.skip(4 + (version == 1 ? 8 : 4) + 8 + 8 + 36)
            track.displayWidth = Int(try cursor.u32() >> 16)
            track.displayHeight = Int(try cursor.u32() >> 16)
        }
        guard let mdia = boxes.first("mdia") else { return track }
        let media = try children(bytes, mdia)
        if let mdhd = media.first("mdhd") {
            var cursor = ByteCursor(bytes, from: Int(mdhd.payloadStart), to: Int(mdhd.end))
            let version = try cursor.u8()
            try cursor.skip(3 + (version == 1 ? 16 : 8))
            track.timescale = try cursor.u32()
        }
        if let hdlr = media.first("hdlr") {
            var cursor = ByteCursor(bytes, from: Int(hdlr.payloadStart) + 8, to: Int(hdlr.end))
            track.handler = try cursor.fourCC()
        }
        guard let minf = media.first("minf"), let stbl = try children(bytes, minf).first("stbl"),
            let stsd = try children(bytes, stbl).first("stsd"),
            let entry = try children(bytes, stsd, skipping: 8).first
        else { return track }
        try readSampleEntry(bytes, entry, into: &track)
        return track
    }

    private static func readSampleEntry(
        _ bytes: [UInt8], _ entry: BoxHeader, into track: inout Track
    ) throws(MediaParseError) {
        var format = entry.type
        var childOffset = 0
        if track.isVideo {
            var cursor = ByteCursor(bytes, from: Int(entry.payloadStart) + 24, to: Int(entry.end))
            track.codedWidth = Int(try cursor.u16())
            track.codedHeight = Int(try cursor.u16())
            childOffset = 78
        } else if track.isAudio {
            var cursor = ByteCursor(bytes, from: Int(entry.payloadStart) + 8, to: Int(entry.end))
            let version = try cursor.u16()
            childOffset = 28 + (version == 1 ? 16 : version == 2 ? 36 : 0)
        } else {
            track.format = format
            return
        }
        let boxes = try children(bytes, entry, skipping: childOffset)
        if format == "encv" || format == "enca", let sinf = boxes.first("sinf"),
            let frma = try children(bytes, sinf).first("frma")
        {
            var cursor = ByteCursor(bytes, from: Int(frma.payloadStart), to: Int(frma.end))
            format = try cursor.fourCC()
        }
        track.format = format
        func payload(_ type: String) -> ArraySlice<UInt8>? {
            boxes.first(type).map { bytes[Int($0.payloadStart)..<Int($0.end)] }
        }
        switch format {
        case "avc1", "avc3": if let avcC = payload("avcC") { track.configuration = try .avc(format, avcC) }
        case "hvc1", "hev1": if let hvcC = payload("hvcC") { track.configuration = try .hevc(format, hvcC) }
        case "av01": if let av1C = payload("av1C") { track.configuration = try .av1(av1C) }
        case "mp4a": if let esds = payload("esds") { track.configuration = try .mp4a(esds) }
        default: break
        }
        guard track.isVideo else { return }
        // The first colour box with code points wins (an ICC profile may come before it); a box too short to hold
        // them counts as no box.
        let tagged = boxes.lazy.filter { $0.type == "colr" }
            .compactMap { try? VideoColour.colourBox(bytes[Int($0.payloadStart)..<Int($0.end)]) }.first
        track.colour = tagged ?? track.configuration?.sequenceColour ?? VideoColour()
    }
}

/// A track's fragment defaults (trex), overridden per fragment by tfhd and per sample by trun.
package struct SampleDefaults: Equatable {
    var descriptionIndex: UInt32 = 1
    var duration: UInt32 = 0
    var size: UInt32 = 0
    var flags: UInt32 = 0
}
