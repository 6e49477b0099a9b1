/// How strongly a rule is worded where it comes from (RFC 2119).
package enum Severity: String, Codable, Sendable, Comparable {
    case must = "MUST"
    case should = "SHOULD"

    package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .must && rhs == .should }
}

/// One rule the checker applies. Numbers without a prefix are items of Apple's "HLS Authoring Specification for
/// Apple Devices"; "RFC8216 x.y" is a section of RFC 8216 where Apple has no item of its own; "reel.…" is Reel's
/// own rule, where neither says it in so many words (colour, for HDR phone footage).
package struct HLSRule: Sendable, Hashable {
    package let id: String
    package let severity: Severity
    package let summary: String

    init(_ id: String, _ severity: Severity, _ summary: String) {
        self.id = id
        self.severity = severity
        self.summary = summary
    }
}

extension HLSRule {
    // Playlist syntax and versions (RFC 8216 §4, §7).
    static let header = HLSRule("RFC8216 4.3.1.1", .must, "A playlist starts with #EXTM3U.")
    static let syntax = HLSRule("RFC8216 4", .must, "Tags, attributes and URI lines are well formed.")
    static let oneVersion = HLSRule("RFC8216 4.3.1.2", .must, "A playlist has at most one EXT-X-VERSION.")
    static let version = HLSRule("RFC8216 7", .must, "EXT-X-VERSION covers every feature the playlist uses.")
    static let targetDurationRounded = HLSRule(
        "RFC8216 4.3.3.1", .must, "Every EXTINF, rounded, is at most EXT-X-TARGETDURATION.")
    static let targetDurationTight = HLSRule(
        "RFC8216 4.3.3.1", .should, "EXT-X-TARGETDURATION is the longest EXTINF, rounded.")
    static let endList = HLSRule("RFC8216 6.2.1", .must, "A playlist holding the final segment has EXT-X-ENDLIST.")
    static let mediaExists = HLSRule("RFC8216 3", .must, "Every segment URI resolves to a resource.")
    static let byteRange = HLSRule("RFC8216 4.3.2.2", .must, "Every EXT-X-BYTERANGE lies inside its resource.")
    static let mapResolves = HLSRule(
        "RFC8216 4.3.2.5", .must, "EXT-X-MAP resolves to a readable Media Initialization Section.")
    static let variantResolves = HLSRule("RFC8216 4.3.4.2", .must, "Every variant URI resolves to a media playlist.")
    static let codecsMatch = HLSRule("RFC8216 4.3.4.2", .must, "CODECS lists exactly the formats the segments carry.")
    // Apple: video (1), trick play (6), segmentation (7), media playlists (8), multivariant playlists (9).
    static let averageBandwidth = HLSRule(
        "1.26", .must, "VOD: the average segment bit rate is within 10 % of AVERAGE-BANDWIDTH.")
    static let peakBandwidth = HLSRule("1.27", .must, "VOD: the measured peak bit rate is within 10 % of BANDWIDTH.")
    static let peakToAverage = HLSRule("1.30", .should, "VOD: the peak bit rate is no more than 200 % of the average.")
    static let iFramePlaylists = HLSRule("6.1", .must, "I-frame playlists (EXT-X-I-FRAME-STREAM-INF) are provided.")
    static let iFramesOnly = HLSRule("6.8", .must, "I-frame playlists contain EXT-X-I-FRAMES-ONLY.")
    static let iFrameBandwidth = HLSRule(
        "6.9", .must, "An I-frame playlist's peak segment bit rate is calculated as the HLS spec says.")
    static let iFrameMoof = HLSRule("6.10", .must, "fMP4 I-frame segments include the 'moof' of their I-frame.")
    static let iFrameIsIDR = HLSRule(
        "RFC8216 4.3.3.6", .must, "Each segment of an I-frame playlist is one I-frame (IDR) sample, whole.")
    static let decodeTime = HLSRule(
        "7.3", .must, "fMP4: each segment's tfdt follows the previous segment's decode time and duration.")
    static let startsWithIDR = HLSRule("7.4", .must, "Video segments start with an IDR frame.")
    static let targetDurationExceeded = HLSRule(
        "7.7", .must, "No segment exceeds the target duration by more than 0.5 s.")
    static let extinfAccurate = HLSRule(
        "8.1", .must, "EXTINF durations are within one frame of the content's real duration.")
    static let sameTargetDuration = HLSRule("8.2", .must, "All media playlists use the same target duration.")
    static let playlistTypeVOD = HLSRule("8.6", .must, "VOD media playlists have EXT-X-PLAYLIST-TYPE:VOD.")
    static let sameTimeRange = HLSRule("8.7", .must, "All VOD media playlists cover the same media time range.")
    static let mapPresent = HLSRule("8.20", .must, "fMP4 media playlists have EXT-X-MAP.")
    static let alignedSegments = HLSRule(
        "8.22", .should, "All variants have segment boundaries (and IDRs) at the same times.")
    static let codecsPresent = HLSRule("9.1", .must, "EXT-X-STREAM-INF has CODECS.")
    static let resolution = HLSRule(
        "9.2", .must, "EXT-X-STREAM-INF with video has RESOLUTION, equal to the picture size.")
    static let iFrameCodecs = HLSRule("9.3", .must, "EXT-X-I-FRAME-STREAM-INF has CODECS.")
    static let iFrameResolution = HLSRule("9.4", .must, "EXT-X-I-FRAME-STREAM-INF has RESOLUTION.")
    static let multipleVariants = HLSRule("9.9", .must, "Multiple bit rates of video (variants) are provided.")
    static let independentMaster = HLSRule(
        "9.11", .should, "IDR-started segments: EXT-X-INDEPENDENT-SEGMENTS in the master.")
    static let independentMedia = HLSRule(
        "9.12", .must, "Not in the master: EXT-X-INDEPENDENT-SEGMENTS in every video playlist.")
    static let averagePresent = HLSRule("9.14", .must, "EXT-X-STREAM-INF has AVERAGE-BANDWIDTH.")
    static let frameRate = HLSRule(
        "9.15", .must, "EXT-X-STREAM-INF with video has FRAME-RATE, equal to the frame rate.")
    // Colour: the init segment's `colr` box (or the H.264 SPS VUI) and bit depth, against the master.
    static let hdrBitDepth = HLSRule(
        "reel.colour.8bit-hdr", .must, "Video tagged with an HDR transfer (PQ 16, HLG 18) has 10 bits or more.")
    static let videoRange = HLSRule(
        "reel.colour.video-range", .must,
        "VIDEO-RANGE (absent means SDR) matches the video's transfer: PQ for 16, HLG for 18, SDR for any other.")
    static let rungColour = HLSRule(
        "reel.colour.rung", .must,
        "Variants of one rung (the same RESOLUTION and VIDEO-RANGE, in any codec) carry the same colour tags.")
}
