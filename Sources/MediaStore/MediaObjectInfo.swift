/// What `head` or `list` says about one object, the same from every engine.
package struct MediaObjectInfo: Sendable, Equatable {
    /// Library-relative, as given to `put`.
    package let key: String
    /// The whole object's size in bytes.
    package let size: Int64
    /// A strong entity tag with its quotes, as HTTP sends it; it changes whenever the bytes may have.
    package let etag: String
    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) where the engine knows it; S3 listings give ISO 8601.
    package let lastModified: String
    /// When the object was last written, in Unix seconds, where the engine knows it (every listing does): a sweep
    /// judges an object's age by it and leaves one of unknown age alone.
    package let modifiedSeconds: Int64?
    package let contentType: String?
    package let cacheControl: String?
    /// User metadata (names lower-cased) where the engine keeps it (`MediaStore.keepsMetadata`); empty otherwise,
    /// and from listings.
    package let metadata: [String: String]

    package init(
        key: String, size: Int64, etag: String, lastModified: String, modifiedSeconds: Int64? = nil,
        contentType: String? = nil, cacheControl: String? = nil, metadata: [String: String] = [:]
    ) {
        self.key = key
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
        self.modifiedSeconds = modifiedSeconds
        self.contentType = contentType
        self.cacheControl = cacheControl
        self.metadata = metadata
    }
}
