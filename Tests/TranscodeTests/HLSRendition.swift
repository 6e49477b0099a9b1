import Foundation
import LibAV

/// One rung of a ladder as a test sees it: its playlist, and its segments read back through libav.
struct HLSRendition {
    struct Segment {
        let duration: Double
        let file: String
    }

    let directory: String
    let playlist: String
    let segments: [Segment]

    init(directory: String) throws {
        self.directory = directory
        playlist = try String(contentsOfFile: directory + "/index.m3u8", encoding: .utf8)
        var segments: [Segment] = []
        var duration: Double?
        for line in playlist.split(whereSeparator: \.isNewline).map(String.init) {
            if line.hasPrefix("#EXTINF:") {
                duration = Double(line.dropFirst(8).split(separator: ",")[0])
            } else if !line.hasPrefix("#"), let d = duration {
                segments.append(Segment(duration: d, file: line))
                duration = nil
            }
        }
        self.segments = segments
    }

    /// init.mp4 followed by the given segments, as one fragmented MP4 file that the mov demuxer reads.
    func joined(_ parts: [Segment], to path: String) throws -> String {
        var data = try Data(contentsOf: URL(fileURLWithPath: directory + "/init.mp4"))
        for part in parts { data += try Data(contentsOf: URL(fileURLWithPath: directory + "/" + part.file)) }
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    struct Reading {
        var video: StreamInfo
        var audio: StreamInfo?
        /// Video packet times in seconds, with their keyframe flags, in decode order.
        var packets: [(time: Double, isKeyframe: Bool)]
        var decodedFrames: Int
        var decodedSize: (Int, Int)
        var decodedFormat: PixelFormat?
        /// The audio packets' sizes in bytes, in order.
        var audioPacketSizes: [Int] = []
    }

    static func read(_ path: String, decode: Bool = true) throws -> Reading {
        let policy = InputPolicy(
            format: "mov", formatWhitelist: ["mov"], codecWhitelist: ["h264", "hevc", "av1", "aac"], maxStreams: 4,
            maxPixels: 1 << 24)
        let input = try InputContext(path: path, policy: policy)
        let videoIndex = try require(input.bestStream(.video), "no video stream")
        let timeBase = try input.timeBase(ofStream: videoIndex)
        let decoder =
            decode
            ? try input.makeDecoder(
                streamIndex: videoIndex, threads: 1, maxPixels: 1 << 24,
                codecWhitelist: ["h264", "hevc", "av1", "libdav1d"]) : nil
        var packets: [(Double, Bool)] = []
        var frames = 0
        var size = (0, 0)
        var format: PixelFormat?
        let audioIndex = input.bestStream(.audio)
        var audioSizes: [Int] = []
        let packet = try Packet(), frame = try Frame()
        func drain() throws {
            guard let decoder else { return }
            while try decoder.receive(into: frame) == .output {
                frames += 1
                size = (frame.width, frame.height)
                format = frame.pixelFormat
                frame.unref()
            }
        }
        while try input.read(into: packet) == .output {
            if packet.streamIndex == videoIndex {
                packets.append((Double(packet.pts) * timeBase.doubleValue, packet.isKeyframe))
                _ = try decoder?.send(packet)
                try drain()
            } else if packet.streamIndex == audioIndex {
                audioSizes.append(packet.size)
            }
            packet.unref()
        }
        _ = try decoder?.send(nil)
        try drain()
        return Reading(
            video: input.streams[videoIndex], audio: input.bestStream(.audio).map { input.streams[$0] },
            packets: packets, decodedFrames: frames, decodedSize: size, decodedFormat: format,
            audioPacketSizes: audioSizes)
    }
}

func require<T>(_ value: T?, _ message: String = "missing value") throws -> T {
    guard let value else { throw TestFailure(message: message) }
    return value
}

struct TestFailure: Error { let message: String }
