/// What a HEAD or a listing says about one object.
package struct ObjectInfo: Sendable, Equatable {
    /// The key under the location's prefix (the prefix itself removed).
    package let key: String
    package let size: Int64
    /// The entity tag with its quotes, as HTTP sends it.
    package let etag: String
    /// As the store gave it: an HTTP date from HEAD, ISO 8601 from a listing.
    package let lastModified: String
    package let contentType: String?
    package let cacheControl: String?
    /// User metadata (`x-amz-meta-<name>` headers, names lower-cased and without the prefix); empty from a listing.
    package let metadata: [String: String]

    package init(
        key: String, size: Int64, etag: String, lastModified: String, contentType: String? = nil,
        cacheControl: String? = nil, metadata: [String: String] = [:]
    ) {
        self.metadata = metadata
        self.key = key
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.cacheControl = cacheControl
    }
}
