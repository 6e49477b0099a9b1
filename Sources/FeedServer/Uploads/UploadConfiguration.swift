package import Catalog
package import MediaModel
package import MediaStore

/// Where uploads over HTTP go and how large they may be: the same limits as every other way in.
package struct UploadConfiguration: Sendable {
    /// The engine that keeps unfinished uploads and hands finished ones over: a library directory's `.uploads/`
    /// (`DirectoryResumableUploads`) or multipart uploads in object storage (`S3ResumableUploads`).
    package var uploads: any ResumableUploads
    package var maximumVideoBytes: Int64
    package var maximumImageBytes: Int64
    /// An unfinished upload is removed this long after its last PATCH.
    package var expirySeconds: Int64 = 24 * 3600
    /// Every token's quota where its own (`reel token set`) has no limit; none by default (`reel serve` sets its own).
    package var quota = UploadQuota()

    package init(uploads: any ResumableUploads, limits: AdmissionLimits) {
        self.uploads = uploads
        maximumVideoBytes = limits.video.maxBytes
        maximumImageBytes = limits.image.maxBytes
    }

    /// `Tus-Max-Size`: the largest upload of any kind.
    package var maximumBytes: Int64 { max(maximumVideoBytes, maximumImageBytes) }
}
