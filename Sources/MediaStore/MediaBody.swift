package import NIOCore

/// The bytes of a `MediaRead`. Every body can be read as a stream; an engine may also offer a faster form its
/// caller can use instead (a server sends a local file itself, or a buffer already in memory without a copy).
package struct MediaBody: Sendable {
    /// The bytes, chunk by chunk. Read at most once.
    package let stream: MediaByteStream
    /// Set when the bytes are a range of a local file: a server may send them from there itself (sendfile).
    package let localFile: LocalFileRange?
    /// Set when the bytes are already in memory.
    package let buffer: ByteBuffer?

    /// The bytes of a local file, from `offset`, `count` of them.
    package struct LocalFileRange: Sendable, Equatable {
        package let path: String
        package let offset: Int64
        package let count: Int64

        package init(path: String, offset: Int64, count: Int64) {
            self.path = path
            self.offset = offset
            self.count = count
        }
    }

    package init(stream: MediaByteStream, localFile: LocalFileRange? = nil) {
        self.stream = stream
        self.localFile = localFile
        self.buffer = nil
    }

    /// Bytes in memory.
    package init(buffer: ByteBuffer) {
        self.stream = MediaByteStream(buffer: buffer)
        self.localFile = nil
        self.buffer = buffer
    }

    /// No bytes (a 304, an empty object).
    package static var empty: MediaBody { MediaBody(buffer: ByteBuffer()) }

    /// The body read whole.
    /// - Throws: `MediaStoreError.tooLarge` past `limit` bytes; what the stream throws (`.unavailable` when it
    ///   broke off).
    package func collect(upTo limit: Int, key: String) async throws -> ByteBuffer {
        if let buffer {
            guard buffer.readableBytes <= limit else { throw MediaStoreError.tooLarge(key: key, limit: limit) }
            return buffer
        }
        var collected = ByteBuffer()
        for try await var chunk in stream {
            guard collected.readableBytes + chunk.readableBytes <= limit else {
                throw MediaStoreError.tooLarge(key: key, limit: limit)
            }
            collected.writeBuffer(&chunk)
        }
        return collected
    }
}
