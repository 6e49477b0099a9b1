/// One upload over HTTP (tus): its declared length, the offset acknowledged so far, and the job it became.
package struct UploadRecord: Sendable, Equatable {
    package var id: String
    package var tokenID: String
    package var length: Int64
    /// Bytes acknowledged: all on disk (fsynced) before this grew.
    package var received: Int64
    /// The `Upload-Metadata` header as the client sent it, for `HEAD`.
    package var metadata: String
    /// The file name the client gave, raw (it need not be UTF-8); it becomes the job's source name.
    package var filename: [UInt8]
    package var createdAt: Int64
    package var updatedAt: Int64
    package var expiresAt: Int64
    /// Chosen when the last byte arrives, before the file moves to the job queue.
    package var jobID: String?
    package var finishedAt: Int64?
    /// The caption, title and creator, checked when the upload was created; its job and video get them.
    package var post: PostFacts

    package init(
        id: String, tokenID: String, length: Int64, received: Int64 = 0, metadata: String, filename: [UInt8],
        createdAt: Int64, updatedAt: Int64, expiresAt: Int64, jobID: String? = nil, finishedAt: Int64? = nil,
        post: PostFacts = PostFacts()
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
        self.post = post
    }

    package var isComplete: Bool { received == length }
}
