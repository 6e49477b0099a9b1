internal import MediaModel

/// A published video's facts in one compact value, kept in `videos.item_record` so a feed page is an index seek and
/// one column per item, without the renditions join. It holds what was published — library-relative paths, sizes,
/// codecs, hints — and nothing of the HTTP API: no URL, no JSON key. The feed server renders items from it, so a new
/// media base URL or API field needs no data migration.
///
/// Derived data: the normalized columns are the truth. An edit made outside Reel clears the record through
/// triggers (SQLite migration v5, PostgreSQL v1), and readers encode that row again from its columns.
///
/// A video with a loudness is written as version 2, its loudness after the renditions; one without it as version 1,
/// byte for byte as before loudness, so stored records stay valid and a v2 record cut at its loudness is refused. A
/// `playable` video (issue 64) is version 3: its loudness as an optional, then its stage; a published one stays 1 or 2.
/// A video with a caption, title or creator (issue 65) was version 4: version 3's layout, then the caption, and the
/// title and creator as optionals. It is written as version 5 now, which adds the visibility and the access epoch,
/// for any video with facts, a visibility other than public or a raised epoch; one without stays as it was.
/// Renditions are kept in `FeedVideo.Rendition.precedes` order. Layout: a version byte, then the fields in `FeedVideo`'s order. Integers are zigzag LEB128 varints, strings a
/// varint length and UTF-8, optionals a 0/1 byte first, doubles their 8 IEEE bytes, little-endian.
package enum FeedVideoRecord {
    static let version: UInt8 = 1
    /// The version of records that end with a loudness.
    static let versionWithLoudness: UInt8 = 2
    /// The version of records that end with an optional loudness and a stage.
    static let versionWithStage: UInt8 = 3
    /// The version of records that end with a stage and the post's facts.
    static let versionWithPost: UInt8 = 4
    /// The version of records that end with the post's facts, its visibility and its access epoch.
    static let versionWithVisibility: UInt8 = 5

    /// What was wrong with a stored record, and where.
    package struct Malformed: Error, Equatable, CustomStringConvertible {
        package let reason: String
        package let offset: Int
        package var description: String { "a stored feed record is malformed at byte \(offset): \(reason)" }
    }

    package static func encode(_ video: FeedVideo) -> [UInt8] {
        var out = Writer()
        let found =
            !video.post.isEmpty || video.accessEpoch != 0
            ? versionWithVisibility
            : video.stage != .published ? versionWithStage : video.loudness == nil ? version : versionWithLoudness
        out.bytes.append(found)
        out.string(video.id)
        out.int(video.publishedAt)
        out.int(video.durationMilliseconds)
        out.int(video.width)
        out.int(video.height)
        out.optional(video.masterPath) { $0.string($1) }
        out.optional(video.posterJPEGPath) { $0.string($1) }
        out.optional(video.posterWebPPath) { $0.string($1) }
        out.optional(video.storyboard) { out, board in
            out.string(board.vttPath)
            out.string(board.imagePath)
            out.int(board.intervalSeconds)
            out.int(board.tileWidth)
            out.int(board.tileHeight)
            out.int(board.columns)
            out.int(board.count)
        }
        out.int(video.renditions.count)
        // In the feed's order whatever order they were published in, as the catalog reads them back.
        for rendition in video.renditions.sorted(by: FeedVideo.Rendition.precedes) {
            out.string(rendition.rung)
            out.int(rendition.width)
            out.int(rendition.height)
            out.int(rendition.bandwidth)
            out.int(rendition.averageBandwidth)
            out.string(rendition.codecs)
            out.int(rendition.segments)
            out.optional(rendition.videoCodec) { $0.string($1) }
            out.optional(rendition.crf) { $0.double($1) }
            out.optional(rendition.targetSSIMY) { $0.double($1) }
            out.optional(rendition.prefetch) { out, hint in
                out.int(hint.initBytes)
                out.int(hint.segmentDurationMilliseconds)
                out.int(hint.firstSegments.count)
                for segment in hint.firstSegments {
                    out.int(segment.durationMilliseconds)
                    out.int(segment.bytes)
                }
            }
        }
        func write(_ loudness: AudioLoudness, _ out: inout Writer) {
            out.optional(loudness.sourceLUFS) { $0.double($1) }
            out.optional(loudness.sourceTruePeakDBTP) { $0.double($1) }
            out.double(loudness.gainDB)
            out.double(loudness.targetLUFS)
            out.double(loudness.truePeakCeilingDBTP)
            out.int((loudness.isLimited ? 1 : 0) | (loudness.isCapped ? 2 : 0) | (loudness.isSilent ? 4 : 0))
        }
        if found == versionWithStage || found == versionWithVisibility {
            out.optional(video.loudness) { write($1, &$0) }
            out.int(VideoStage.allCases.firstIndex(of: video.stage) ?? 0)
        } else if let loudness = video.loudness {
            write(loudness, &out)
        }
        if found == versionWithVisibility {
            out.string(video.post.caption)
            out.optional(video.post.title) { $0.string($1) }
            out.optional(video.post.creator) { $0.string($1) }
            out.int(Visibility.allCases.firstIndex(of: video.post.visibility) ?? 0)
            out.int(video.accessEpoch)
        }
        return out.bytes
    }

    package static func decode(_ bytes: some Collection<UInt8>) throws(Malformed) -> FeedVideo {
        var input = Reader(bytes: Array(bytes))
        let found = try input.byte()
        guard (version...versionWithVisibility).contains(found) else {
            throw Malformed(reason: "version \(found), expected \(version) to \(versionWithVisibility)", offset: 0)
        }
        let id = try input.string()
        let publishedAt = try input.int64()
        let duration = try input.int(), width = try input.int(), height = try input.int()
        let master = try input.optional { input throws(Malformed) in try input.string() }
        let posterJPEG = try input.optional { input throws(Malformed) in try input.string() }
        let posterWebP = try input.optional { input throws(Malformed) in try input.string() }
        let storyboard = try input.optional { input throws(Malformed) in
            Storyboard(
                vttPath: try input.string(), imagePath: try input.string(), intervalSeconds: try input.int(),
                tileWidth: try input.int(), tileHeight: try input.int(), columns: try input.int(),
                count: try input.int())
        }
        let count = try input.count(atMost: 64, of: "renditions")
        var renditions: [FeedVideo.Rendition] = []
        renditions.reserveCapacity(count)
        for _ in 0..<count {
            let rung = try input.string()
            let width = try input.int(), height = try input.int(), bandwidth = try input.int(),
                average = try input.int()
            let codecs = try input.string()
            let segments = try input.int()
            let videoCodec = try input.optional { input throws(Malformed) in try input.string() }
            let crf = try input.optional { input throws(Malformed) in try input.double() }
            let target = try input.optional { input throws(Malformed) in try input.double() }
            let prefetch = try input.optional { input throws(Malformed) -> PrefetchHint in
                let initBytes = try input.int(), segmentDuration = try input.int()
                let segmentCount = try input.count(atMost: 1024, of: "prefetch segments")
                var segments: [PrefetchHint.Segment] = []
                segments.reserveCapacity(segmentCount)
                for _ in 0..<segmentCount {
                    segments.append(PrefetchHint.Segment(durationMilliseconds: try input.int(), bytes: try input.int()))
                }
                return PrefetchHint(
                    initBytes: initBytes, segmentDurationMilliseconds: segmentDuration, firstSegments: segments)
            }
            renditions.append(
                FeedVideo.Rendition(
                    rung: rung, width: width, height: height, bandwidth: bandwidth,
                    averageBandwidth: average, codecs: codecs, segments: segments,
                    videoCodec: videoCodec, crf: crf, targetSSIMY: target, prefetch: prefetch))
        }
        func readLoudness(_ input: inout Reader) throws(Malformed) -> AudioLoudness {
            let source = try input.optional { input throws(Malformed) in try input.double() }
            let peak = try input.optional { input throws(Malformed) in try input.double() }
            let gain = try input.double(), target = try input.double(), ceiling = try input.double()
            let flags = try input.int()
            guard (0...7).contains(flags) else {
                throw Malformed(reason: "loudness flags \(flags)", offset: input.offset)
            }
            return AudioLoudness(
                sourceLUFS: source, sourceTruePeakDBTP: peak, gainDB: gain, targetLUFS: target,
                truePeakCeilingDBTP: ceiling, isLimited: flags & 1 != 0, isCapped: flags & 2 != 0,
                isSilent: flags & 4 != 0)
        }
        var loudness: AudioLoudness?
        var stage = VideoStage.published
        if found == versionWithLoudness {
            loudness = try readLoudness(&input)
        } else if found >= versionWithStage {
            loudness = try input.optional { input throws(Malformed) in try readLoudness(&input) }
            let index = try input.int()
            guard VideoStage.allCases.indices.contains(index) else {
                throw Malformed(reason: "stage \(index)", offset: input.offset)
            }
            stage = VideoStage.allCases[index]
        }
        var post = PostFacts()
        var accessEpoch: Int64 = 0
        if found >= versionWithPost {
            post.caption = try input.string()
            post.title = try input.optional { input throws(Malformed) in try input.string() }
            post.creator = try input.optional { input throws(Malformed) in try input.string() }
        }
        if found == versionWithVisibility {
            let index = try input.int()
            guard Visibility.allCases.indices.contains(index) else {
                throw Malformed(reason: "visibility \(index)", offset: input.offset)
            }
            post.visibility = Visibility.allCases[index]
            accessEpoch = try input.int64()
        }
        guard input.offset == input.bytes.count else {
            let last =
                switch found {
                case versionWithVisibility: "access epoch"
                case versionWithPost: "creator"
                case versionWithStage: "stage"
                default: loudness == nil ? "rendition" : "loudness"
                }
            throw Malformed(
                reason: "\(input.bytes.count - input.offset) bytes after the last \(last)", offset: input.offset)
        }
        return FeedVideo(
            id: id, publishedAt: publishedAt, durationMilliseconds: duration, width: width, height: height,
            masterPath: master, posterJPEGPath: posterJPEG, posterWebPPath: posterWebP, renditions: renditions,
            storyboard: storyboard, loudness: loudness, stage: stage, post: post, accessEpoch: accessEpoch)
    }

    private struct Writer {
        var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(512) }

        mutating func int(_ value: Int) { int(Int64(value)) }

        mutating func int(_ value: Int64) {
            var rest = UInt64(bitPattern: (value << 1) ^ (value >> 63))
            while rest >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }

        mutating func string(_ value: String) {
            int(value.utf8.count)
            bytes.append(contentsOf: value.utf8)
        }

        mutating func double(_ value: Double) {
            var bits = value.bitPattern
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        }

        mutating func optional<T>(_ value: T?, _ body: (inout Writer, T) -> Void) {
            guard let value else { return bytes.append(0) }
            bytes.append(1)
            body(&self, value)
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() throws(Malformed) -> UInt8 {
            guard offset < bytes.count else { throw Malformed(reason: "it ends early", offset: offset) }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func int64() throws(Malformed) -> Int64 {
            let start = offset
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = try byte()
                guard shift < 64, shift < 63 || byte & 0x7E == 0 else {
                    throw Malformed(reason: "a number longer than 64 bits", offset: start)
                }
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { break }
                shift += 7
            }
            return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
        }

        mutating func int() throws(Malformed) -> Int {
            let start = offset
            let value = try int64()
            guard let fitted = Int(exactly: value) else {
                throw Malformed(reason: "\(value) does not fit an Int", offset: start)
            }
            return fitted
        }

        mutating func count(atMost limit: Int, of what: String) throws(Malformed) -> Int {
            let start = offset
            let value = try int()
            guard (0...limit).contains(value) else {
                throw Malformed(reason: "\(value) \(what), more than \(limit) or negative", offset: start)
            }
            return value
        }

        mutating func string() throws(Malformed) -> String {
            let start = offset
            let length = try int()
            guard length >= 0, length <= bytes.count - offset else {
                throw Malformed(
                    reason: "a string of \(length) bytes where \(bytes.count - offset) are left", offset: start)
            }
            defer { offset += length }
            guard let text = String(validating: bytes[offset..<offset + length], as: UTF8.self) else {
                throw Malformed(reason: "a string that is not UTF-8", offset: start)
            }
            return text
        }

        mutating func double() throws(Malformed) -> Double {
            guard bytes.count - offset >= 8 else { throw Malformed(reason: "it ends inside a number", offset: offset) }
            var bits: UInt64 = 0
            for index in (0..<8).reversed() { bits = bits << 8 | UInt64(bytes[offset + index]) }
            offset += 8
            return Double(bitPattern: bits)
        }

        mutating func optional<T>(_ body: (inout Reader) throws(Malformed) -> T) throws(Malformed) -> T? {
            let start = offset
            switch try byte() {
            case 0: return nil
            case 1: return try body(&self)
            case let flag: throw Malformed(reason: "presence flag \(flag), expected 0 or 1", offset: start)
            }
        }
    }
}
