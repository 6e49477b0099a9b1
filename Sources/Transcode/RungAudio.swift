internal import LibAV

/// A rung's AAC encoder: audio is encoded once per rung bitrate, and every packet is muxed into the rung's
/// renditions in each codec.
/// `@unchecked Sendable`: its encoder and packet are used by the session's one thread, one audio chunk at a time.
final class RungAudio: @unchecked Sendable {
    let encoder: Encoder
    private(set) var outputs: [RungOutput] = []
    private let packet: Packet

    init(bitrateKbps: Int, preset: LadderPreset) throws(AVError) {
        encoder = try Encoder(
            EncoderSettings(
                codec: "aac", kind: .audio(sampleRate: preset.audio.sampleRate, channels: preset.audio.channels),
                timeBase: Rational(1, Int32(preset.audio.sampleRate)), bitRate: Int64(bitrateKbps) * 1000,
                globalHeader: true, options: [("profile", "aac_low")]))
        packet = try Packet()
    }

    /// The renditions that carry this audio (set once they exist: each was made with `encoder`).
    func deliver(to outputs: [RungOutput]) {
        self.outputs = outputs
    }

    /// Encodes `frame` (nil drains) and muxes what comes out into every rendition.
    func encode(_ frame: Frame?) throws(AVError) {
        _ = try encoder.send(frame)
        while try encoder.receive(into: packet) == .output {
            for output in outputs { try output.writeAudio(packet, timeBase: encoder.timeBase) }
            packet.unref()
        }
    }
}
