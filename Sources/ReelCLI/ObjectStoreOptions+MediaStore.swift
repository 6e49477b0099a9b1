import MediaStore
import MediaStoreDirectory
import MediaStoreS3
import NIOPosix
import ObjectStore

extension ObjectStoreOptions {
    /// `body` with the library `library` names: an `s3://` URL's store (its client shut down after `body`, whatever
    /// happens) or the directory at that path, which must exist.
    /// - Throws: `ValidationError` for a bad URL; what `client(_:)` throws for missing credentials;
    ///   `MediaStoreError.notFound` for a missing directory; what `body` throws.
    func withMediaStore<T>(_ library: String, _ body: (any MediaStore) async throws -> T) async throws -> T {
        guard S3Location.isS3(library) else { return try await body(try DirectoryMediaStore(root: library)) }
        return try await client(try location(library)).shutDown { try await body(S3MediaStore(client: $0)) }
    }
}
