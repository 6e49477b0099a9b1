internal import LibAV

/// Copies the video and audio packets of an upload into an MP4 with its index up front, without re-encoding.
/// The rotation survives as a display matrix; global metadata (GPS, device, dates) is not copied.
enum Remuxer {
    static func remux(_ input: InputContext, to path: String, rotation: Int, isCancelled: () -> Bool) throws {
        guard let videoIndex = input.bestStream(.video) else { return }
        let audioIndex = input.bestStream(.audio)
        let output = try OutputContext(path: path, format: "mp4")
        var map: [Int: Int] = [:]
        map[videoIndex] = try output.addStream(copying: videoIndex, of: input)
        if rotation != 0 { try output.setRotation(streamIndex: map[videoIndex]!, degrees: rotation) }
        if let audioIndex { map[audioIndex] = try output.addStream(copying: audioIndex, of: input) }
        input.discardAll(except: Set(map.keys))
        try output.writeHeader(options: [("movflags", "+faststart")])
        let packet = try Packet()
        while try input.read(into: packet) == .output {
            defer { packet.unref() }
            if isCancelled() { throw TranscodeError(.cancelled, path: "") }
            guard let target = map[packet.streamIndex] else { continue }
            packet.rescale(
                from: try input.timeBase(ofStream: packet.streamIndex), to: try output.timeBase(ofStream: target))
            packet.streamIndex = target
            try output.write(packet)
        }
        try output.writeTrailer()
    }
}
