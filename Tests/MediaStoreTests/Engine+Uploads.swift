import Foundation
import MediaModel
import MediaStore
import MediaStoreDirectory
import MediaStoreS3
import NIOCore
import ObjectStore
import SigV4
import TestServers

/// What a test may look at behind an uploads engine's back.
struct UploadsProbe: Sendable {
    /// The bytes handed over as the original of job `id`, or nil while there are none.
    let original: @Sendable (String) async throws -> [UInt8]?
    /// Every file or object the engine keeps besides handed-over originals.
    let leftovers: @Sendable () async throws -> [String]
}

extension Engine {
    /// An uploads engine of this kind on an empty library, and its probe; both go after `body`, whatever happens.
    func withUploads<T>(_ body: (any ResumableUploads, UploadsProbe) async throws -> T) async throws -> T {
        let base = FileManager.default.temporaryDirectory.path + "/uploads-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        switch self {
        case .directory:
            let layout = LibraryLayout(root: base + "/library")
            let uploads = try DirectoryResumableUploads(library: layout.root)
            let probe = UploadsProbe(
                original: { id in FileManager.default.contents(atPath: layout.incoming(id)).map { Array($0) } },
                leftovers: {
                    try FileManager.default.contentsOfDirectory(atPath: layout.uploads).map { ".uploads/" + $0 }
                })
            return try await body(uploads, probe)
        case .s3:
            let server = try await SeaweedTestServer.shared()
            let client = S3Client(
                location: try S3Location(parsing: server.libraryURL(prefix: SeaweedTestServer.newPrefix() + "/lib")),
                credentials: SigV4Credentials(accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey))
            let probe = UploadsProbe(
                original: { id in
                    let key = try ObjectKey(ObjectLayout.original(id))
                    guard try await client.head(key) != nil else { return nil }
                    return Array(buffer: try await client.get(key, limit: 64 << 20))
                },
                leftovers: {
                    try await client.list(prefix: "").map(\.key).filter { !$0.hasPrefix(ObjectLayout.originals) }
                })
            return try await client.shutDown { try await body(S3ResumableUploads(client: $0), probe) }
        }
    }
}
