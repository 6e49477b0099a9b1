import Catalog
import Foundation
import MediaStoreS3
import ObjectStore
import SQLiteCatalog
import SigV4
import TestServers
import Worker

/// A `WorkerRig` whose library is in a SeaweedFS of its own: the rig's library directory is then only the worker's
/// scratch space (not shared), and `client` looks at the store the way the worker writes it.
struct ObjectWorkerRig {
    let local: WorkerRig
    let server: SeaweedTestServer
    let client: S3Client

    /// A rig for `body` on a prefix of its own in the process's shared store, or (`ownServer`, for a test that stops
    /// it) on a store of its own; the client is shut down (and an own store stopped) after it, whether it returned or
    /// threw.
    static func with(
        retry: S3RetryPolicy = .standard, ownServer: Bool = false, _ body: (ObjectWorkerRig) async throws -> Void
    ) async throws {
        let server = ownServer ? try await SeaweedTestServer() : try await SeaweedTestServer.shared()
        let client = S3Client(
            location: try S3Location(parsing: server.libraryURL(prefix: SeaweedTestServer.newPrefix())),
            credentials: SigV4Credentials(accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey),
            retry: retry)
        do {
            try await body(ObjectWorkerRig(local: try WorkerRig(), server: server, client: client))
        } catch {
            try? await client.shutdown()
            if ownServer { await server.stop() }
            throw error
        }
        try await client.shutdown()
        if ownServer { await server.stop() }
    }

    /// `host`'s configuration (this rig's own by default) with the library in the store.
    func configuration(
        _ launcher: ScriptedJobLauncher, on host: WorkerRig? = nil,
        _ change: (inout WorkerConfiguration) -> Void = { _ in }
    ) -> WorkerConfiguration {
        (host ?? local).configuration(launcher) {
            $0.library = S3MediaStore(client: client)
            $0.scratchIsShared = false
            change(&$0)
        }
    }

    func makeWorker(_ configuration: WorkerConfiguration) throws -> Worker { try local.makeWorker(configuration) }

    /// Every key under the library's prefix, sorted.
    func keys() async throws -> [String] { try await client.list(prefix: "").map(\.key).sorted() }
}
