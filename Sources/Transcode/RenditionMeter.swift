internal import LibAV

/// Reads a rendition back as it is encoded and compares each decoded picture with the rung's scaled source picture
/// for the same slot (SSIM-Y): the quality the viewer gets, at the rendition's size, without a second pass. The
/// source pictures wait here until the encoder's delay has passed (tens of frames), which is the memory it costs.
final class RenditionMeter: @unchecked Sendable {
    private let decoder: Decoder
    private let decoded: Frame
    /// Scaled source pictures by slot, until their decoded counterpart comes out.
    private var waiting: [Int64: Frame] = [:]
    /// Sets of slots whose SSIM-Y is also pooled apart (`pooled`): the content-aware check sets the rendition
    /// against its rung's own CRF on the same pictures (the probe windows, a sample of the clip's GOPs).
    private let pools: [[Range<Int64>]]
    private(set) var ssim = LumaSSIM()
    private(set) var pooled: [LumaSSIM]
    private(set) var picturesCompared = 0

    init(reading encoder: Encoder, pools: [[Range<Int64>]] = []) throws(AVError) {
        decoder = try Decoder(decoding: encoder, threads: 1)
        decoded = try Frame()
        self.pools = pools
        pooled = pools.map { _ in LumaSSIM() }
    }

    /// Keeps the rung's picture for `slot` (a reference: no copy).
    func expect(_ picture: Frame, slot: Int64) throws(AVError) {
        waiting[slot] = try picture.makeReference()
    }

    /// Decodes one encoded packet (nil: the end) and compares what comes out.
    func read(_ packet: Packet?) throws(AVError) {
        _ = try decoder.send(packet)
        while try decoder.receive(into: decoded) == .output {
            defer { decoded.unref() }
            guard let reference = waiting.removeValue(forKey: decoded.pts) else { continue }
            let picture = try decoded.lumaSSIM(against: reference)
            ssim = ssim + picture
            for (index, pool) in pools.enumerated() where pool.contains(where: { $0.contains(decoded.pts) }) {
                pooled[index] = pooled[index] + picture
            }
            picturesCompared += 1
        }
    }
}
