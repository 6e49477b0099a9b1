/// One upload over HTTP (tus): its declared length, the offset acknowledged so far, and the job it became.
public struct UploadRecord: Sendable, Equatable {
    public var id: String
    public var tokenID: String
    public var length: Int64
    /// Bytes acknowledged: all on disk (fsynced) before this grew.
    public var received: Int64
    /// The `Upload-Metadata` header as the client sent it, for `HEAD`.
    public var metadata: String
    /// The file name the client gave, raw (it need not be UTF-8); it becomes the job's source name.
    public var filename: [UInt8]
    public var createdAt: Int64
    public var updatedAt: Int64
    public var expiresAt: Int64
    /// Chosen when the last byte arrives, before the file moves to the job queue.
    public var jobID: String?
    public var finishedAt: Int64?

    public init(
        id: String, tokenID: String, length: Int64, received: Int64 = 0, metadata: String, filename: [UInt8],
        createdAt: Int64, updatedAt: Int64, expiresAt: Int64, jobID: String? = nil, finishedAt: Int64? = nil
    ) {
        self.id = id
        self.tokenID = tokenID
        self.length = length
        self.received = received
        self.metadata = metadata
        self.filename = filename
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.expiresAt = expiresAt
        self.jobID = jobID
        self.finishedAt = finishedAt
    }

    public var isComplete: Bool { received == length }
}
