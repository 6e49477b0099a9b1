public import Catalog
public import MediaModel

/// Where uploads over HTTP go and how large they may be: the same limits as every other way in.
public struct UploadConfiguration: Sendable {
    /// A library directory keeps uploads in `.uploads/` and hands them over through `.incoming/`; a library in object
    /// storage keeps them as multipart uploads at the job's original key (`ObjectUploads`).
    public enum Storage: Sendable {
        case directory(LibraryLayout)
        case objects(ObjectUploads)
    }

    public var storage: Storage
    public var maximumVideoBytes: Int64
    public var maximumImageBytes: Int64
    /// An unfinished upload is removed this long after its last PATCH.
    public var expirySeconds: Int64 = 24 * 3600
    /// Every token's quota where its own (`reel token set`) has no limit; none by default (`reel serve` sets its own).
    public var quota = UploadQuota()

    public init(library: String, limits: AdmissionLimits) {
        self.init(storage: .directory(LibraryLayout(root: library)), limits: limits)
    }

    public init(storage: Storage, limits: AdmissionLimits) {
        self.storage = storage
        maximumVideoBytes = limits.video.maxBytes
        maximumImageBytes = limits.image.maxBytes
    }

    /// `Tus-Max-Size`: the largest upload of any kind.
    public var maximumBytes: Int64 { max(maximumVideoBytes, maximumImageBytes) }
}
