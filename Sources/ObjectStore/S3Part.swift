/// One uploaded part of a multipart upload: its number (1...10000) and the entity tag the store gave it.
package struct S3Part: Sendable, Equatable {
    package let number: Int
    package let etag: String
    package let size: Int64

    package init(number: Int, etag: String, size: Int64) {
        self.number = number
        self.etag = etag
        self.size = size
    }
}
