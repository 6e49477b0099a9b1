public import MediaModel

/// An upload that passed admission, with everything learnt about it on the way.
public struct AdmittedUpload: Sendable {
    public var info: MediaInfo
    public var format: SniffedFormat
    /// The image's own header facts (images only).
    public var imageHeader: ImageHeader?
}
