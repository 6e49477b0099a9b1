internal import FileSystem
internal import LibAV

/// Reads a rendition back as it is encoded and compares each decoded picture with the rung's scaled source picture
/// for the same slot (SSIM-Y): the quality the viewer gets, at the rendition's size, without a second pass. The
/// source pictures wait here until the encoder's delay has passed (tens of frames), which is the memory it costs.
/// `@unchecked Sendable`: owned by one rendition or probe encoder, whose one thread at a time calls it.
final class RenditionMeter: @unchecked Sendable {
    private let decoder: Decoder
    private let decoded: Frame
    /// Scaled source pictures by slot, until their decoded counterpart comes out.
    private var waiting: [Int64: Frame] = [:]
    /// Sets of slots whose SSIM-Y is also pooled apart (`pooled`): the content-aware check sets the rendition
    /// against its rung's own CRF on the same pictures (the probe windows, a sample of the clip's GOPs).
    private let pools: [[Range<Int64>]]
    /// When set, only slots below it are read back: the decoder is drained as soon as their last packet is in, and
    /// the rest of the encode passes by undecoded (the first probes' share of a rendition, `FirstProbeTrial`).
    let limit: Int64?
    private var packetsBelowLimit: Int64 = 0
    private(set) var ssim = LumaSSIM()
    private(set) var pooled: [LumaSSIM]
    /// Per pool, the pictures compared and the encoded bytes of its slots' packets.
    private(set) var pooledPictures: [Int]
    private(set) var pooledBytes: [Int]
    private(set) var picturesCompared = 0
    /// CPU seconds spent in the read-back (decode and comparison), on the threads that called it.
    private(set) var cpuSeconds = 0.0

    init(reading encoder: Encoder, pools: [[Range<Int64>]] = [], limit: Int64? = nil) throws(AVError) {
        decoder = try Decoder(decoding: encoder, threads: 1)
        decoded = try Frame()
        self.pools = pools
        self.limit = limit
        pooled = pools.map { _ in LumaSSIM() }
        pooledPictures = pools.map { _ in 0 }
        pooledBytes = pools.map { _ in 0 }
    }

    /// Whether every slot below `limit` has been compared: nothing more is read.
    var isDone: Bool { limit.map { Int64(picturesCompared) >= $0 } ?? false }

    /// Keeps the rung's picture for `slot` (a reference: no copy).
    func expect(_ picture: Frame, slot: Int64) throws(AVError) {
        if let limit, slot >= limit { return }
        waiting[slot] = try picture.makeReference()
    }

    /// Decodes one encoded packet (nil: the end) and compares what comes out.
    func read(_ packet: Packet?) throws(AVError) {
        guard !isDone else { return }
        let started = ThreadCPU.currentThreadSeconds()
        defer { cpuSeconds += ThreadCPU.currentThreadSeconds() - started }
        if let packet {
            for (index, pool) in pools.enumerated() where pool.contains(where: { $0.contains(packet.pts) }) {
                pooledBytes[index] += packet.size
            }
            if let limit, packet.pts < limit { packetsBelowLimit += 1 }
        }
        try decode(packet)
        // An encoder gives one packet per picture: with the last one below the limit in, nothing more is needed.
        if packet != nil, let limit, packetsBelowLimit == limit { try decode(nil) }
    }

    private func decode(_ packet: Packet?) throws(AVError) {
        _ = try decoder.send(packet)
        while try decoder.receive(into: decoded) == .output {
            defer { decoded.unref() }
            guard let reference = waiting.removeValue(forKey: decoded.pts) else { continue }
            let picture = try decoded.lumaSSIM(against: reference)
            ssim = ssim + picture
            for (index, pool) in pools.enumerated() where pool.contains(where: { $0.contains(decoded.pts) }) {
                pooled[index] = pooled[index] + picture
                pooledPictures[index] += 1
            }
            picturesCompared += 1
        }
    }
}
