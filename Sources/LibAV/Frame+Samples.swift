internal import CFFmpeg

extension Frame {
    /// Planar 32-bit float (`AV_SAMPLE_FMT_FLTP`): the format of the AAC encoder, and so of the ladder's resampler.
    package static var planarFloatFormatRaw: Int32 { AV_SAMPLE_FMT_FLTP.rawValue }

    /// A planar float audio frame holding `channels` (one array per channel, all the same length).
    /// - Throws: `AVError` naming `av_frame_get_buffer`, or `Frame(floatChannels:)` for channels of unequal length.
    package convenience init(floatChannels channels: [[Float]], sampleRate: Int) throws(AVError) {
        let count = channels.first?.count ?? 0
        guard !channels.isEmpty, channels.allSatisfy({ $0.count == count }) else {
            throw AVError(
                function: "Frame(floatChannels:)", message: "needs channels of one length, got \(channels.map(\.count))"
            )
        }
        // av_frame_get_buffer refuses 0 samples: an empty block is a frame without buffers.
        guard count > 0 else {
            try self.init()
            return
        }
        try self.init(
            sampleCount: count, sampleFormatRaw: Self.planarFloatFormatRaw, channels: channels.count,
            sampleRate: sampleRate)
        for (index, samples) in channels.enumerated() {
            let plane = pointer.pointee.extended_data[index]!
            plane.withMemoryRebound(to: Float.self, capacity: count) { destination in
                samples.withUnsafeBufferPointer { destination.update(from: $0.baseAddress!, count: count) }
            }
        }
    }

    /// This audio frame's samples, one array per channel.
    /// - Throws: `AVError` naming `Frame.floatChannels` when the frame is not planar float.
    package func floatChannels() throws(AVError) -> [[Float]] {
        guard pointer.pointee.format == Self.planarFloatFormatRaw else {
            throw AVError(
                function: "Frame.floatChannels",
                message: "needs planar float samples, got format \(pointer.pointee.format)")
        }
        let count = sampleCount
        return (0..<channelCount).map { index in
            guard count > 0, let plane = pointer.pointee.extended_data[index] else { return [] }
            return plane.withMemoryRebound(to: Float.self, capacity: count) {
                Array(UnsafeBufferPointer(start: $0, count: count))
            }
        }
    }
}
