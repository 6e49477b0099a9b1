public import MediaModel

/// Where uploads over HTTP go and how large they may be: the same limits as every other way in.
public struct UploadConfiguration: Sendable {
    public var layout: LibraryLayout
    public var maximumVideoBytes: Int64
    public var maximumImageBytes: Int64
    /// An unfinished upload is removed this long after its last PATCH.
    public var expirySeconds: Int64 = 24 * 3600

    public init(library: String, limits: AdmissionLimits) {
        layout = LibraryLayout(root: library)
        maximumVideoBytes = limits.video.maxBytes
        maximumImageBytes = limits.image.maxBytes
    }

    /// `Tus-Max-Size`: the largest upload of any kind.
    public var maximumBytes: Int64 { max(maximumVideoBytes, maximumImageBytes) }
}
