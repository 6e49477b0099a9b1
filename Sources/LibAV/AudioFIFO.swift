internal import CFFmpeg

/// Owns one `AVAudioFifo`: regroups resampled audio into the fixed-size frames AAC needs (1024 samples).
/// `@unchecked Sendable`: the FIFO has no lock; one thread (the session's audio) writes and reads it at a time.
package final class AudioFIFO: @unchecked Sendable {
    let fifo: OpaquePointer
    package let formatRaw: Int32
    let channels: Int
    let sampleRate: Int

    package init(formatRaw: Int32, channels: Int, sampleRate: Int) throws(AVError) {
        fifo = try allocated(
            av_audio_fifo_alloc(AVSampleFormat(rawValue: formatRaw), Int32(channels), 4096), "av_audio_fifo_alloc")
        self.formatRaw = formatRaw
        self.channels = channels
        self.sampleRate = sampleRate
    }

    deinit { av_audio_fifo_free(fifo) }

    package var count: Int { Int(av_audio_fifo_size(fifo)) }

    package func write(_ frame: Frame) throws(AVError) {
        guard frame.sampleCount > 0 else { return }
        let data = frame.pointer.pointee.extended_data!.withMemoryRebound(
            to: UnsafeMutableRawPointer?.self, capacity: channels
        ) { $0 }
        let written = try check(
            av_audio_fifo_write(fifo, data, frame.pointer.pointee.nb_samples), "av_audio_fifo_write")
        guard written == frame.pointer.pointee.nb_samples else {
            throw AVError(function: "av_audio_fifo_write", message: "wrote \(written) of \(frame.sampleCount) samples")
        }
    }

    /// Up to `count` samples as a new frame (fewer only at the end of the stream).
    package func read(_ count: Int) throws(AVError) -> Frame {
        let frame = try Frame(
            sampleCount: min(count, self.count), sampleFormatRaw: formatRaw, channels: channels, sampleRate: sampleRate)
        let data = frame.pointer.pointee.extended_data!.withMemoryRebound(
            to: UnsafeMutableRawPointer?.self, capacity: channels
        ) { $0 }
        let read = try check(av_audio_fifo_read(fifo, data, frame.pointer.pointee.nb_samples), "av_audio_fifo_read")
        frame.pointer.pointee.nb_samples = read
        return frame
    }
}
