import Foundation
import MediaStore
import MediaStoreDirectory
import MediaStoreS3
import ObjectStore
import SigV4
import TestServers
import Testing

/// The engines the conformance suite runs on.
enum Engine: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case directory
    case s3

    var testDescription: String { rawValue }

    /// A store of this engine, empty, and a scratch directory on the same file system as a directory library (so a
    /// staged tree can be renamed in); both go after `body`, whatever happens.
    func withStore<T>(_ body: (any MediaStore, _ scratch: String) async throws -> T) async throws -> T {
        let base = FileManager.default.temporaryDirectory.path + "/mediastore-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: base + "/library/.staging", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        switch self {
        case .directory:
            let store = try DirectoryMediaStore(root: base + "/library")
            return try await body(store, base + "/library/.staging")
        case .s3:
            let server = try await SeaweedTestServer.shared()
            let client = S3Client(
                location: try S3Location(parsing: server.libraryURL(prefix: SeaweedTestServer.newPrefix() + "/lib")),
                credentials: SigV4Credentials(accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey))
            return try await client.shutDown { try await body(S3MediaStore(client: $0), base + "/library/.staging") }
        }
    }
}

/// Bytes that differ at every offset of a short run, so a range off by one shows.
func patternBytes(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8 &+ Int(seed)) }
}

/// Writes `bytes` to a new file at `path`, making its folders.
func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        throw CocoaError(.fileWriteUnknown)
    }
}
