internal import CWebP

/// Owns one `WebPMemoryWriter`, the in-memory sink the encoder appends the RIFF file to.
final class WebPMemoryWriter {
    var raw = CWebP.WebPMemoryWriter()

    init() { WebPMemoryWriterInit(&raw) }

    deinit { WebPMemoryWriterClear(&raw) }

    var bytes: [UInt8] {
        guard let mem = raw.mem else { return [] }
        return Array(UnsafeBufferPointer(start: mem, count: raw.size))
    }
}
