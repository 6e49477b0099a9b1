/// A chat image whose WebP is in place in the library, ready to be recorded.
public struct PublishedImage: Sendable, Equatable {
    public var id: String
    public var createdAt: Int64
    public var width: Int
    public var height: Int
    public var bytes: Int
    public var path: String
    public var contentHash: String

    public init(id: String, createdAt: Int64, width: Int, height: Int, bytes: Int, path: String, contentHash: String) {
        self.id = id
        self.createdAt = createdAt
        self.width = width
        self.height = height
        self.bytes = bytes
        self.path = path
        self.contentHash = contentHash
    }
}
