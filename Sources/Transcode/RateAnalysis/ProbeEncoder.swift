internal import LibAV

/// One probe's encoder and its read-back, with nothing muxed: the analysis's probes, and the check's sample of the
/// clip at a rung's own CRF (`LadderSession`). Only one thread touches it at a time. Its encoder's CPU is counted as a
/// rendition's is (`TimedEncoder`).
/// `@unchecked Sendable`: its encoder, packet and counts are used by one thread at a time (one task per probe or rung).
final class ProbeEncoder: @unchecked Sendable {
    private let timed: TimedEncoder
    let meter: RenditionMeter
    private let packet: Packet
    private(set) var bytes = 0
    private(set) var frames = 0

    /// - Parameters:
    ///   - pools, limit: as the read-back's (`RenditionMeter`).
    init(_ settings: EncoderSettings, pools: [[Range<Int64>]] = [], limit: Int64? = nil) throws(AVError) {
        timed = try TimedEncoder(settings)
        meter = try RenditionMeter(reading: timed.encoder, pools: pools, limit: limit)
        packet = try Packet()
    }

    func encode(_ picture: Frame, slot: Int64, keyframe: Bool) throws(AVError) {
        let frame = try picture.makeReference()
        frame.pts = slot
        try meter.expect(picture, slot: slot)
        try timed.send(frame, keyframe: keyframe)
        frames += 1
        try drain()
    }

    /// Flushes the encoder and its read-back; returns the encoder's CPU seconds.
    func finish() throws(AVError) -> Double {
        try timed.flush()
        try drain()
        try meter.read(nil)
        return timed.cpuSeconds()
    }

    /// The encoder's CPU seconds so far, for an encoder dropped unflushed.
    func cpuSeconds() -> Double { timed.cpuSeconds() }

    private func drain() throws(AVError) {
        while try timed.receive(into: packet) {
            bytes += packet.size
            try meter.read(packet)
            packet.unref()
        }
    }
}
