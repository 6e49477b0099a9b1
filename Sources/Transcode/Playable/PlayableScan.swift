internal import Ingest
internal import LibAV
internal import MediaModel

/// Gathers `PlayablePlan.Facts` for an admitted upload: its admission facts, and one read of its packets without
/// decoding (keyframe spacing, which keyframes are IDRs, and the bit rate of each segment the HLS muxer would cut),
/// but for its first picture, the poster of a copy. The input is then moved back to the start, for the step that
/// follows to read it again instead of opening the upload once more.
enum PlayableScan {
    /// What the scan found, and its input, back at the start and reading only `videoIndex` and `audioIndex`.
    struct Scanned {
        var facts: PlayablePlan.Facts
        var input: InputContext
        var videoIndex: Int
        var audioIndex: Int?
        /// The first decoded picture (the first keyframe's), as stored; nil when none decoded.
        var firstPicture: Frame?
    }

    /// One video packet's place in the scan.
    struct VideoPacket {
        /// Presentation time from the first packet's.
        var seconds: Double
        /// Decode time from the first packet's.
        var decodeSeconds: Double = 0
        var bytes: Int
        var isKeyframe: Bool
    }

    /// - Throws: `TranscodeError` when the upload cannot be opened again or read.
    static func scan(_ admitted: AdmittedVideo, segmentSeconds: Double) throws(TranscodeError) -> Scanned {
        let (input, videoIndex, audioIndex) = try LadderTranscoder.openStreams(admitted)
        guard let video = admitted.info.video else {
            throw TranscodeError(
                .rejected(Rejection(.noVideoStream, "no video stream", path: admitted.path)), path: admitted.path)
        }
        var packets: [VideoPacket] = []
        var allIDR = true
        var picture: Frame?
        do {
            let timeBase = try input.timeBase(ofStream: videoIndex).doubleValue
            let packet = try Packet()
            var decoder: Decoder? = try input.makeDecoder(
                streamIndex: videoIndex, threads: 1, maxPixels: admitted.limits.maxPixels,
                codecWhitelist: admitted.limits.codecs)
            var first: Int64?
            var firstDecode: Int64?
            while try input.read(into: packet) == .output {
                defer { packet.unref() }
                guard packet.streamIndex == videoIndex else { continue }
                if let poster = decoder {
                    _ = try poster.send(packet)
                    let frame = try Frame()
                    if try poster.receive(into: frame) == .output {
                        picture = frame
                        decoder = nil
                    }
                }
                let pts = packet.pts == noTimestamp ? packet.dts : packet.pts
                let start = first ?? pts
                first = start
                let isKey = packet.isKeyframe
                if isKey, allIDR { allIDR = startsWithIDR(packet.bytes) }
                let dts = packet.dts == noTimestamp ? pts : packet.dts
                let decodeStart = firstDecode ?? dts
                firstDecode = decodeStart
                packets.append(
                    VideoPacket(
                        seconds: Double(pts - start) * timeBase, decodeSeconds: Double(dts - decodeStart) * timeBase,
                        bytes: packet.size, isKeyframe: isKey))
                if packets.count == 1, !isKey { allIDR = false }
            }
            try input.seek(toSeconds: 0, streamIndex: videoIndex)
        } catch {
            throw TranscodeError(error, path: admitted.path)
        }
        let rate = video.averageFrameRate > 0 ? video.averageFrameRate : video.realFrameRate
        let frameSeconds = rate > 0 ? 1 / rate : 0
        let colour = video.colour
        let facts = PlayablePlan.Facts(
            videoCodec: video.codec, videoProfile: video.profile, pixelFormat: video.pixelFormat,
            bitDepth: video.bitDepth, colourPrimaries: colour?.primaries ?? "", colourTransfer: colour?.transfer ?? "",
            isDolbyVision: colour?.dolbyVision != nil, width: video.codedWidth, height: video.codedHeight,
            rotation: video.rotation, averageFrameRate: video.averageFrameRate, realFrameRate: video.realFrameRate,
            largestKeyframeGapSeconds: largestKeyframeGap(packets, frameSeconds: frameSeconds),
            keyframesAreIDR: allIDR && !packets.isEmpty,
            videoPackets: packets.map { PlayablePlan.Sample(seconds: $0.decodeSeconds, bytes: $0.bytes) },
            audioCodec: audioIndex.map { input.streams[$0].codecName },
            audioProfile: audioIndex.flatMap { input.streams[$0].profileName })
        return Scanned(
            facts: facts, input: input, videoIndex: videoIndex, audioIndex: audioIndex, firstPicture: picture)
    }

    /// The longest time between keyframes in presentation order, the last one's to the end of the clip included.
    static func largestKeyframeGap(_ packets: [VideoPacket], frameSeconds: Double) -> Double {
        let keys = packets.filter(\.isKeyframe).map(\.seconds).sorted()
        guard let firstKey = keys.first else { return .infinity }
        let end = (packets.map(\.seconds).max() ?? 0) + frameSeconds
        var largest = firstKey
        for (a, b) in zip(keys, keys.dropFirst()) { largest = max(largest, b - a) }
        return max(largest, end - keys.last!)
    }

    /// Whether a keyframe's first picture slice is an IDR (NAL type 5), its NAL units either 4-byte
    /// length-prefixed (MP4, MOV) or Annex B start codes.
    static func startsWithIDR(_ data: [UInt8]) -> Bool {
        for type in nalTypes(data) where (1...5).contains(type) { return type == 5 }
        return false
    }

    static func nalTypes(_ data: [UInt8]) -> [UInt8] {
        var types: [UInt8] = []
        let annexB = data.count >= 4 && data[0] == 0 && data[1] == 0 && (data[2] == 1 || (data[2] == 0 && data[3] == 1))
        if annexB {
            var index = 0
            while index + 3 < data.count {
                if data[index] == 0, data[index + 1] == 0, data[index + 2] == 1 {
                    types.append(data[index + 3] & 0x1F)
                    index += 3
                } else {
                    index += 1
                }
            }
            return types
        }
        var offset = 0
        while offset + 4 < data.count {
            let length =
                Int(data[offset]) << 24 | Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8
                | Int(data[offset + 3])
            guard length > 0, offset + 4 + length <= data.count else { return types }
            types.append(data[offset + 4] & 0x1F)
            offset += 4 + length
        }
        return types
    }
}
