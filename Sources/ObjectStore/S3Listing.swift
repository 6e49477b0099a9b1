/// One page of a ListObjectsV2 answer. Pure.
struct S3Listing: Equatable {
    let objects: [ObjectInfo]
    /// Set when the listing is truncated.
    let nextToken: String?

    /// - Throws: `ObjectStoreError` `.badResponse` when the XML is not a listing or an entry lacks its key or size.
    init(xml: String, droppingPrefix prefix: String) throws(ObjectStoreError) {
        let text = xml[...]
        guard text.contains("<ListBucketResult") else {
            throw ObjectStoreError(.badResponse, "a listing without <ListBucketResult>: \(xml.prefix(200))")
        }
        var objects: [ObjectInfo] = []
        for entry in S3XML.blocks("Contents", in: text) {
            guard let key = S3XML.value("Key", in: entry), let size = S3XML.value("Size", in: entry).flatMap(Int64.init)
            else { throw ObjectStoreError(.badResponse, "a listing entry without a key or size: \(entry.prefix(200))") }
            objects.append(
                ObjectInfo(
                    key: key.hasPrefix(prefix) ? String(key.dropFirst(prefix.count)) : key, size: size,
                    etag: S3XML.value("ETag", in: entry) ?? "",
                    lastModified: S3XML.value("LastModified", in: entry) ?? ""
                ))
        }
        self.objects = objects
        let truncated = S3XML.value("IsTruncated", in: text) == "true"
        let token = S3XML.value("NextContinuationToken", in: text)
        if truncated, token == nil || token == "" {
            throw ObjectStoreError(.badResponse, "a truncated listing without NextContinuationToken")
        }
        nextToken = truncated ? token : nil
    }
}
