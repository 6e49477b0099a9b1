package import Catalog
package import MediaModel

/// Where uploads over HTTP go and how large they may be: the same limits as every other way in.
package struct UploadConfiguration: Sendable {
    /// A library directory keeps uploads in `.uploads/` and hands them over through `.incoming/`; a library in object
    /// storage keeps them as multipart uploads at the job's original key (`ObjectUploads`).
    package enum Storage: Sendable {
        case directory(LibraryLayout)
        case objects(ObjectUploads)
    }

    package var storage: Storage
    package var maximumVideoBytes: Int64
    package var maximumImageBytes: Int64
    /// An unfinished upload is removed this long after its last PATCH.
    package var expirySeconds: Int64 = 24 * 3600
    /// Every token's quota where its own (`reel token set`) has no limit; none by default (`reel serve` sets its own).
    package var quota = UploadQuota()

    package init(library: String, limits: AdmissionLimits) {
        self.init(storage: .directory(LibraryLayout(root: library)), limits: limits)
    }

    package init(storage: Storage, limits: AdmissionLimits) {
        self.storage = storage
        maximumVideoBytes = limits.video.maxBytes
        maximumImageBytes = limits.image.maxBytes
    }

    /// `Tus-Max-Size`: the largest upload of any kind.
    package var maximumBytes: Int64 { max(maximumVideoBytes, maximumImageBytes) }
}
