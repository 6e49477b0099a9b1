/// Uploads that arrive in pieces, over many requests and perhaps many servers (tus): the library's second role
/// beside `MediaStore` (issue 63). The catalog keeps each upload's acknowledged offset; an engine keeps the bytes
/// so that everything up to that offset survives a crash, and never trusts a byte past it. A finished upload becomes
/// the job with the upload's own id. `DirectoryResumableUploads` keeps a file in `.uploads/` and hands it over
/// through `.incoming/`; `S3ResumableUploads` keeps a multipart upload at `originals/<id>`. One conformance suite
/// runs on both.
package protocol ResumableUploads: Sendable {
    /// Where the uploads are kept, for messages: a directory or `s3://bucket/prefix`.
    var name: String { get }

    /// Readies upload `id`, before the catalog records it; `discard` undoes it.
    /// - Throws: `MediaStoreError.unavailable`, `.full`, `.failed`.
    func begin(id: String) async throws

    /// A writer for one request's bytes of upload `id`, from its acknowledged `offset`: whatever a request cut short
    /// left past that offset is dropped or written over.
    /// - Throws: `MediaStoreError.notFound` when the bytes up to `offset` are not all there; `.unavailable`, `.full`,
    ///   `.failed`.
    func writer(id: String, offset: Int64) async throws -> any ResumableUploadWriter

    /// Hands the finished upload of `length` bytes over as the original of job `id`. Safe to repeat after a crash,
    /// before or after the job took it.
    /// - Throws: `MediaStoreError.alreadyExists` when the original holds other bytes; `.notFound` when the upload's
    ///   last state is missing; `.unavailable`, `.full`, `.failed`.
    func complete(id: String, length: Int64) async throws

    /// Removes everything of an unfinished upload; one already gone is not an error.
    /// - Throws: `MediaStoreError.unavailable`, `.failed`.
    func discard(id: String) async throws
}
