package import NIOCore

/// Chunks of an object's bytes, whichever engine reads them: a type-erased `AsyncSequence` of `ByteBuffer`s that
/// Hummingbird's `ResponseBody(asyncSequence:)` can send as it is.
package struct MediaByteStream: AsyncSequence, Sendable {
    package typealias Element = ByteBuffer

    private let makeNext: @Sendable () -> (() async throws -> ByteBuffer?)

    /// Wraps `base`; its iterator is made once the stream is read.
    package init<Base: AsyncSequence & Sendable>(_ base: Base) where Base.Element == ByteBuffer {
        makeNext = {
            let box = IteratorBox(base.makeAsyncIterator())
            return { try await box.next() }
        }
    }

    /// A stream of one chunk (none when `buffer` is empty).
    package init(buffer: ByteBuffer) {
        makeNext = {
            var pending: ByteBuffer? = buffer.readableBytes > 0 ? buffer : nil
            return {
                defer { pending = nil }
                return pending
            }
        }
    }

    /// Chunks `next` hands out, until it returns nil.
    package init(next: @escaping @Sendable () -> (() async throws -> ByteBuffer?)) {
        makeNext = next
    }

    package struct AsyncIterator: AsyncIteratorProtocol {
        let nextChunk: () async throws -> ByteBuffer?

        package mutating func next() async throws -> ByteBuffer? { try await nextChunk() }
    }

    package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(nextChunk: makeNext()) }

    /// An iterator held by reference, so a closure can advance it.
    private final class IteratorBox<Iterator: AsyncIteratorProtocol> where Iterator.Element == ByteBuffer {
        var iterator: Iterator

        init(_ iterator: Iterator) { self.iterator = iterator }

        func next() async throws -> ByteBuffer? { try await iterator.next() }
    }
}
