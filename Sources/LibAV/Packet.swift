internal import CFFmpeg

/// One owned `AVPacket`.
/// `@unchecked Sendable`: the `AVPacket` has no lock; one thread uses it at a time (others mux references of theirs).
package final class Packet: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVPacket>

    package init() throws(AVError) {
        pointer = try allocated(av_packet_alloc(), "av_packet_alloc")
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }

    package var streamIndex: Int {
        get { Int(pointer.pointee.stream_index) }
        set { pointer.pointee.stream_index = Int32(newValue) }
    }
    package var pts: Int64 {
        get { pointer.pointee.pts }
        set { pointer.pointee.pts = newValue }
    }
    package var dts: Int64 {
        get { pointer.pointee.dts }
        set { pointer.pointee.dts = newValue }
    }
    package var duration: Int64 {
        get { pointer.pointee.duration }
        set { pointer.pointee.duration = newValue }
    }
    package var size: Int { Int(pointer.pointee.size) }
    /// Byte offset in the input file, or -1 when unknown.
    package var position: Int64 { pointer.pointee.pos }
    package var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }

    /// Converts pts, dts and duration between time bases at a hand-off (decoder, encoder, muxer).
    package func rescale(from source: Rational, to target: Rational) {
        av_packet_rescale_ts(pointer, source.av, target.av)
    }

    package func unref() { av_packet_unref(pointer) }

    /// Makes this packet another reference to `source`'s payload (no copy) with its timestamps and flags, so one
    /// encoded packet can go to several muxers, each of which consumes its own.
    package func reference(_ source: Packet) throws(AVError) {
        av_packet_unref(pointer)
        try check(av_packet_ref(pointer, source.pointer), "av_packet_ref")
    }

    /// A copy of the payload bytes.
    package var bytes: [UInt8] {
        guard let data = pointer.pointee.data, pointer.pointee.size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(pointer.pointee.size)))
    }
}
