public import AsyncHTTPClient

/// An object opened for streaming: what the store answered (200, 206 or 304) and the body still to be read.
public struct S3Download: Sendable {
    public let status: Int
    /// From the answer's headers: `size` is this answer's `Content-Length` (the range's, for a 206).
    public let info: ObjectInfo
    public let contentRange: String?
    public let body: HTTPClientResponse.Body
}
