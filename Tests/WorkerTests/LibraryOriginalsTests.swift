import FileSystem
import Foundation
import MediaFixtures
import MediaStore
import MediaStoreDirectory
import MediaStoreS3
import NIOCore
import Testing

@testable import Worker

/// How the worker stores an original in the library and fetches it back, the same on both engines: once, with its
/// hash, a retry with the same bytes is done, other bytes are never replaced, and a fetched copy is whole.
@Suite(.timeLimit(.minutes(5))) struct LibraryOriginalsTests {
    enum Engine: String, CaseIterable, Sendable { case directory, s3 }

    /// A store of `engine`, empty, beside a temporary directory for local files.
    static func withStore(
        _ engine: Engine, _ body: (any MediaStore, TemporaryDirectory) async throws -> Void
    )
        async throws
    {
        let directory = try TemporaryDirectory()
        switch engine {
        case .directory:
            try Directory.create(directory.file("library"))
            try await body(try DirectoryMediaStore(root: directory.file("library")), directory)
        case .s3:
            try await ObjectWorkerRig.with { rig in try await body(S3MediaStore(client: rig.client), directory) }
        }
    }

    @Test(arguments: Engine.allCases) func anOriginalIsStoredOnceAndNeverReplaced(engine: Engine) async throws {
        try await Self.withStore(engine) { store, directory in
            // Over two mebibytes: the download writes in mebibyte batches and then the rest.
            let bytes = (0..<2_300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            try directory.write("upload", bytes)
            let key = try MediaKey("originals/00112233445566778899")
            let hash = try await store.storeOnce(file: directory.file("upload"), at: key, attributes: .private())
            #expect(hash.count == 64)
            // A retry after a crash finds its own bytes there.
            #expect(try await store.storeOnce(file: directory.file("upload"), at: key, attributes: .private()) == hash)
            #expect(try await store.storedHash(of: key) == hash)
            try directory.write("other", Array("other bytes".utf8))
            await #expect(throws: MediaStoreError.alreadyExists(key: key.value)) {
                try await store.storeOnce(file: directory.file("other"), at: key, attributes: .private())
            }
            #expect(Array(buffer: try await store.contents(of: key, limit: 4 << 20)) == bytes)

            #expect(try await store.download(key, to: directory.file("fetched")) == hash, "hashed as it arrived")
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: directory.file("fetched")))) == bytes)
            let missing = try MediaKey("originals/ffffffffffffffffffff")
            #expect(try await store.download(missing, to: directory.file("missing")) == nil)
            #expect(!Directory.exists(directory.file("missing")))
        }
    }
}
