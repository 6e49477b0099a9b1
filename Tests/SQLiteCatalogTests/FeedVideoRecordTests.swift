import MediaModel
import Testing

@testable import Catalog

/// The feed's stored record: every video reads back as it was encoded, and no bytes — cut short, flipped, or made
/// up — crash the decoder; each is a `Malformed` naming the offset.
@Suite(.timeLimit(.minutes(5))) struct FeedVideoRecordTests {
    static let hint = PrefetchHint(
        initBytes: 812, segmentDurationMilliseconds: 2_000,
        firstSegments: [
            .init(durationMilliseconds: 2_000, bytes: 201_234), .init(durationMilliseconds: 1_001, bytes: 7),
        ])

    static let videos: [FeedVideo] = {
        var all: [FeedVideo] = (0..<3).map { n in
            let seeded = SyntheticVideos.video(n)
            return FeedVideo(
                id: seeded.id, publishedAt: seeded.publishedAt, durationMilliseconds: seeded.durationMilliseconds,
                width: seeded.width, height: seeded.height, masterPath: seeded.masterPath,
                posterJPEGPath: seeded.posterJPEGPath,
                posterWebPPath: seeded.posterWebPPath, renditions: seeded.renditions, storyboard: seeded.storyboard)
        }
        all.append(
            FeedVideo(
                id: "日本 😂 \u{0}\"\\", publishedAt: Int64.min, durationMilliseconds: Int.max, width: -1, height: 0,
                masterPath: nil, posterJPEGPath: "", posterWebPPath: nil, renditions: []))
        all.append(
            FeedVideo(
                id: "max", publishedAt: Int64.max, durationMilliseconds: 0, width: 1080, height: 1920,
                masterPath: "videos/max/master.m3u8", posterJPEGPath: nil, posterWebPPath: "p.webp",
                renditions: [
                    FeedVideo.Rendition(
                        rung: "360p-hevc", width: 360, height: 640, bandwidth: 1, averageBandwidth: 0, codecs: "hvc1",
                        segments: 8, videoCodec: "hevc", crf: 22.4, targetSSIMY: 0.9625, prefetch: hint),
                    FeedVideo.Rendition(
                        rung: "720p", width: 720, height: 1280, bandwidth: Int.max, averageBandwidth: Int.min,
                        codecs: "", segments: 0, videoCodec: nil, crf: .nan, targetSSIMY: -.infinity, prefetch: nil),
                ],
                storyboard: Storyboard(
                    vttPath: "s.vtt", imagePath: "s.webp", intervalSeconds: 1, tileWidth: 160,
                    tileHeight: 284, columns: 10, count: 60)))
        // Issue 61: a loudness (version 2), one with every flag and a silent one with nothing measured.
        var loud = all[0]
        loud.loudness = AudioLoudness(
            sourceLUFS: -38.6, sourceTruePeakDBTP: -20.25, gainDB: 20, targetLUFS: -14, truePeakCeilingDBTP: -1,
            isLimited: true, isCapped: true, isSilent: false)
        all.append(loud)
        var silent = all[1]
        silent.loudness = AudioLoudness(
            sourceLUFS: nil, sourceTruePeakDBTP: nil, gainDB: 0, targetLUFS: -14, truePeakCeilingDBTP: -1,
            isLimited: false, isCapped: false, isSilent: true)
        all.append(silent)
        // Issue 64: a playable video (version 3), with a loudness and without.
        var playable = loud
        playable.stage = .playable
        all.append(playable)
        var quiet = all[4]
        quiet.stage = .playable
        all.append(quiet)
        // Issue 65: a post's facts (version 4), published and playable, with a title and creator and without.
        var captioned = loud
        captioned.post = PostFacts(caption: "line one\nline \"two\" 👩‍👩‍👧", title: "T", creator: "alice")
        all.append(captioned)
        var creatorOnly = quiet
        creatorOnly.post = PostFacts(creator: "bob")
        all.append(creatorOnly)
        // A private post whose links were revoked twice, and an unlisted one with nothing else.
        var secret = captioned
        secret.post.visibility = .private
        secret.accessEpoch = 2
        all.append(secret)
        var unlisted = all[0]
        unlisted.post = PostFacts(visibility: .unlisted)
        all.append(unlisted)
        return all
    }()

    @Test(arguments: 0..<13)
    func everyVideoReadsBackAsItWasEncoded(index: Int) throws {
        let video = Self.videos[index]
        let decoded = try FeedVideoRecord.decode(FeedVideoRecord.encode(video))
        // NaN is never equal to itself: compare it by its bits.
        if video.renditions.contains(where: { $0.crf?.isNaN == true }) {
            #expect(decoded.renditions.map { $0.crf?.bitPattern } == video.renditions.map { $0.crf?.bitPattern })
            var same = decoded
            for i in same.renditions.indices {
                same.renditions[i].crf = video.renditions[i].crf?.isNaN == true ? nil : same.renditions[i].crf
            }
            var expected = video
            for i in expected.renditions.indices where expected.renditions[i].crf?.isNaN == true {
                expected.renditions[i].crf = nil
            }
            #expect(same == expected)
        } else {
            #expect(decoded == video)
        }
    }

    @Test(arguments: 0..<13)
    func everyShortenedRecordIsRefusedWithItsOffset(index: Int) {
        let record = FeedVideoRecord.encode(Self.videos[index])
        for length in 0..<record.count {
            #expect(throws: FeedVideoRecord.Malformed.self, "cut to \(length) of \(record.count) bytes") {
                try FeedVideoRecord.decode(record.prefix(length))
            }
        }
        let extra = record + [0]
        let video = Self.videos[index]
        let last =
            !video.post.isEmpty || video.accessEpoch != 0
            ? "access epoch" : video.stage != .published ? "stage" : video.loudness == nil ? "rendition" : "loudness"
        #expect(throws: FeedVideoRecord.Malformed(reason: "1 bytes after the last \(last)", offset: record.count)) {
            try FeedVideoRecord.decode(extra)
        }
    }

    @Test func anotherVersionOrABadFlagIsNamed() {
        var record = FeedVideoRecord.encode(Self.videos[4])
        record[0] = 9
        #expect(throws: FeedVideoRecord.Malformed(reason: "version 9, expected 1 to 5", offset: 0)) {
            try FeedVideoRecord.decode(record)
        }
        // A record whose first optional (the master path) is flagged 2.
        let bad: [UInt8] = [1, 2, UInt8(ascii: "a"), 0, 0, 0, 0, 2]
        #expect(throws: FeedVideoRecord.Malformed(reason: "presence flag 2, expected 0 or 1", offset: 7)) {
            try FeedVideoRecord.decode(bad)
        }
        // A length beyond the record, and a number of more than 64 bits.
        #expect(throws: FeedVideoRecord.Malformed.self) { try FeedVideoRecord.decode([1, 0x7E]) }
        #expect(throws: FeedVideoRecord.Malformed(reason: "a number longer than 64 bits", offset: 1)) {
            try FeedVideoRecord.decode([1] + [UInt8](repeating: 0xFF, count: 11))
        }
    }

    /// A video without facts keeps the version it had before issue 65, byte for byte, so no stored record changes.
    @Test func aVideoWithoutFactsKeepsItsEarlierVersion() {
        #expect(FeedVideoRecord.encode(Self.videos[0]).first == 1)
        #expect(FeedVideoRecord.encode(Self.videos[5]).first == 2)
        #expect(FeedVideoRecord.encode(Self.videos[7]).first == 3)
        #expect(FeedVideoRecord.encode(Self.videos[9]).first == 5)
        #expect(FeedVideoRecord.encode(Self.videos[10]).first == 5)
        #expect(FeedVideoRecord.encode(Self.videos[12]).first == 5)
    }

    /// A record written as version 4 (facts without visibility, between issue 65's first two parts) reads back as a
    /// public post at epoch 0: version 5's bytes without the last two numbers.
    @Test func aVersion4RecordReadsAsAPublicPost() throws {
        let video = Self.videos[9]
        var record = FeedVideoRecord.encode(video)
        #expect(record.suffix(2) == [0, 0], "public (0) and epoch 0, one byte each")
        record.removeLast(2)
        record[0] = 4
        #expect(try FeedVideoRecord.decode(record) == video)
        #expect(throws: FeedVideoRecord.Malformed(reason: "1 bytes after the last creator", offset: record.count)) {
            try FeedVideoRecord.decode(record + [0])
        }
    }

    /// Every single-byte change of a full record decodes to something or is refused; none crashes.
    @Test func everyFlippedByteDecodesOrIsRefused() {
        let record = FeedVideoRecord.encode(Self.videos[4])
        var refused = 0
        for offset in record.indices {
            for value: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF, record[offset] ^ 0x55] {
                var changed = record
                changed[offset] = value
                do { _ = try FeedVideoRecord.decode(changed) } catch { refused += 1 }
            }
        }
        #expect(refused > 0)
    }
}
