/// The result of a receive call: EAGAIN and EOF are ordinary states of a codec loop, not errors.
package enum Received: Sendable, Equatable {
    /// An output was written into the caller's frame or packet.
    case output
    /// The codec needs more input before it can produce output (EAGAIN).
    case needsInput
    /// The codec has been drained and will produce nothing more (EOF).
    case endOfStream
}
