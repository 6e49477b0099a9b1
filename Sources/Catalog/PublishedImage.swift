/// A chat image whose WebP is in place in the library, ready to be recorded.
package struct PublishedImage: Sendable, Equatable {
    package var id: String
    package var createdAt: Int64
    package var width: Int
    package var height: Int
    package var bytes: Int
    package var path: String
    package var contentHash: String

    package init(id: String, createdAt: Int64, width: Int, height: Int, bytes: Int, path: String, contentHash: String) {
        self.id = id
        self.createdAt = createdAt
        self.width = width
        self.height = height
        self.bytes = bytes
        self.path = path
        self.contentHash = contentHash
    }
}
