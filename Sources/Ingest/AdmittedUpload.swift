package import MediaModel

/// An upload that passed admission, with everything learnt about it on the way.
package struct AdmittedUpload: Sendable {
    package var info: MediaInfo
    package var format: SniffedFormat
    /// The image's own header facts (images only).
    package var imageHeader: ImageHeader?
}
