internal import LibAV

/// One decoded, upright source picture, handed to every rung, with its place in decode order.
struct SourcePicture: Sendable {
    let frame: Frame
    /// Counts decoded pictures from 0. Rungs key their scaled-picture cache on it: a new picture always has a new
    /// number, whereas a freed `Frame`'s address (and so its `ObjectIdentifier`) can come back for the next one.
    let number: Int64
}
