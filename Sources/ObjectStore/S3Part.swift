/// One uploaded part of a multipart upload: its number (1...10000) and the entity tag the store gave it.
public struct S3Part: Sendable, Equatable {
    public let number: Int
    public let etag: String
    public let size: Int64

    public init(number: Int, etag: String, size: Int64) {
        self.number = number
        self.etag = etag
        self.size = size
    }
}
