internal import FileSystem
internal import Foundation
internal import HLSCheck
internal import MediaModel

/// The master playlist, written after encoding from what the segments really weigh: BANDWIDTH is the measured
/// peak segment bitrate (never an estimate made before encoding), AVERAGE-BANDWIDTH the measured average.
enum MasterPlaylistWriter {
    struct Measured {
        var segments: Int
        var bytes: Int
        var peak: Int
        var average: Int
        /// The rendition's prefetch hint, from the same reading of the playlist and the same file sizes.
        var prefetch: PrefetchHint?
    }

    /// Reads a VOD media playlist's EXTINF durations and sizes its segment files (and its init segment, for the
    /// prefetch hint): the one reading of what the muxer wrote.
    static func measure(playlist: String) throws -> Measured {
        let directory = (playlist as NSString).deletingLastPathComponent
        let text = String(decoding: try ReadOnlyFile.contents(of: playlist), as: UTF8.self)
        var duration: Double?
        var peak = 0.0, totalBytes = 0, totalSeconds = 0.0, count = 0
        var sizes: [String: Int] = [:]
        for line in text.split(whereSeparator: \.isNewline).map(String.init) {
            if line.hasPrefix("#EXTINF:") {
                duration = Double(line.dropFirst(8).split(separator: ",").first ?? "")
            } else if !line.hasPrefix("#"), !line.isEmpty, let seconds = duration, seconds > 0 {
                let size = Int(try FileStatus(path: directory + "/" + line, followingSymlinks: false).size)
                sizes[line] = size
                peak = max(peak, Double(size * 8) / seconds)
                totalBytes += size
                totalSeconds += seconds
                count += 1
                duration = nil
            }
        }
        let average = totalSeconds > 0 ? Double(totalBytes * 8) / totalSeconds : 0
        let prefetch = PrefetchHint(mediaPlaylist: text) { uri in
            if let size = sizes[uri] { return size }
            guard !uri.contains("/"),
                let status = try? FileStatus(path: directory + "/" + uri, followingSymlinks: false),
                status.kind == .regular
            else { return nil }
            return Int(status.size)
        }
        return Measured(
            segments: count, bytes: totalBytes, peak: Int(peak.rounded(.up)), average: Int(average.rounded()),
            prefetch: prefetch)
    }

    /// RFC 6381 codec strings from the init segment the player will read (avcC, hvcC, av1C, esds), in track order.
    static func codecs(initSegment path: String) throws -> String {
        try InitSegmentCodecs.codecs(of: try ReadOnlyFile.contents(of: path)).joined(separator: ",")
    }

    /// One I-frame playlist beside a rung's media playlist, as the master lists it.
    struct IFrameVariant {
        var uri: String
        var index: IFrameIndex
        /// The rung's, so the I-frame variant states the same VIDEO-RANGE as its rendition.
        var videoRange: TranscodeSummary.VideoRange = .sdr
    }

    /// The master playlists of a ladder, by file name: `master.m3u8` with every variant; with more than one codec also
    /// `master-<codec>.m3u8` with that codec's alone. A player that picks by bandwidth only (GStreamer 1.22's
    /// hlsdemux2) switches codec mid-stream in the full master and fails; one codec's master never asks it to.
    static func files(
        _ renditions: [TranscodeSummary.Rendition], iFrames: [IFrameVariant], codecs: [VideoCodec],
        frameRate: Double
    ) -> [(name: String, text: String)] {
        var files = [("master.m3u8", text(renditions, iFrames: iFrames, frameRate: frameRate))]
        guard codecs.count > 1 else { return files }
        for codec in codecs {
            let kept = renditions.indices.filter { renditions[$0].videoCodec == codec }
            files.append(
                (
                    "master-\(codec.rawValue).m3u8",
                    text(
                        kept.map { renditions[$0] },
                        iFrames: kept.compactMap { $0 < iFrames.count ? iFrames[$0] : nil },
                        frameRate: frameRate)
                ))
        }
        return files
    }

    /// The master's text. Every variant states its VIDEO-RANGE, SDR included (its absence would mean SDR too):
    /// an HDR rung sets `videoRange` on its rendition and nothing else changes. VIDEO-RANGE needs no particular
    /// EXT-X-VERSION (draft-pantos-hls-rfc8216bis §8 lists none for it), so the version stays 7.
    static func text(
        _ renditions: [TranscodeSummary.Rendition], iFrames: [IFrameVariant] = [], frameRate: Double
    ) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for r in renditions {
            lines.append(
                "#EXT-X-STREAM-INF:BANDWIDTH=\(r.bandwidth),AVERAGE-BANDWIDTH=\(r.averageBandwidth),"
                    + "CODECS=\"\(r.codecs)\",RESOLUTION=\(r.width)x\(r.height),FRAME-RATE=\(String(format: "%.3f", frameRate)),"
                    + "VIDEO-RANGE=\(r.videoRange.rawValue)"
            )
            lines.append(r.playlist)
        }
        for variant in iFrames {
            let index = variant.index
            lines.append(
                "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=\(index.peakBitRate),AVERAGE-BANDWIDTH=\(index.averageBitRate),"
                    + "CODECS=\"\(index.codec)\",RESOLUTION=\(index.width)x\(index.height),"
                    + "VIDEO-RANGE=\(variant.videoRange.rawValue),URI=\"\(variant.uri)\"")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `<rung>/iframes.m3u8` for each rendition (Apple 6.1: I-frame playlists MUST be provided), from the
    /// segments as written: each entry a byte range of a segment's 'moof' and its first, IDR, picture.
    static func writeIFramePlaylists(
        _ renditions: [TranscodeSummary.Rendition], directory: String
    ) throws -> [IFrameVariant] {
        try renditions.map { rendition in
            let folder = (rendition.playlist as NSString).deletingLastPathComponent
            let index = try IFrameIndex.build(mediaPlaylist: directory + "/" + rendition.playlist)
            let uri = folder + "/iframes.m3u8"
            try AtomicFile.write(Array(index.playlistText.utf8), to: directory + "/" + uri, durable: false)
            return IFrameVariant(uri: uri, index: index, videoRange: rendition.videoRange)
        }
    }
}
