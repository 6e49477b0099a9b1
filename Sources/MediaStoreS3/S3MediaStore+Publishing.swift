internal import FileSystem
package import MediaStore
internal import NIOPosix
internal import ObjectStore

extension S3MediaStore {
    /// Uploads the staged file, or every file of the staged tree to `key/<path below it>`, create-only, a few at a
    /// time, each with its media headers and hash. A key already holding the same hash is this publish's own earlier
    /// try (a retried request that had landed); other bytes there are `.alreadyExists`. Nobody reads the objects
    /// before the catalog row that names them is committed.
    package func publish(
        staged: String, to key: MediaKey, afterEach: @escaping @Sendable (Int) async throws -> Void
    ) async throws -> Int {
        let parent = Directory.parent(of: staged)
        let name = String(staged.split(separator: "/").last ?? "")
        let status = try? await threadPool.runIfActive { try FileStatus(path: staged, followingSymlinks: false) }
        let jobs: [(path: String, key: String)]
        switch status?.kind {
        case .directory:
            let files = try await mapping(staged) {
                try await threadPool.runIfActive { try Self.stagedFiles(root: parent, folder: name) }
            }
            jobs = files.map {
                (path: parent + "/" + $0.path, key: key.value + "/" + $0.path.dropFirst(name.count + 1))
            }
        case .regular:
            jobs = [(path: staged, key: key.value)]
        default:
            throw MediaStoreError.notFound(key: staged)
        }
        var next = 0
        var done = 0
        try await withThrowingTaskGroup(of: Void.self) { group in
            func add() {
                let job = jobs[next]
                next += 1
                group.addTask { try await self.publish(file: job.path, to: job.key) }
            }
            while next < min(max(parallelUploads, 1), jobs.count) { add() }
            while try await group.next() != nil {
                done += 1
                try await afterEach(done)
                if next < jobs.count { add() }
            }
        }
        return done
    }

    /// One published file: create-only, with the `Content-Type` and `Cache-Control` its name calls for and its hash.
    func publish(file path: String, to key: String) async throws {
        let mediaKey = try MediaKey(key)
        let hash = try await mapping(path, file: path) {
            try await threadPool.runIfActive { try ContentHash.sha256(ofFile: path) }
        }
        do {
            try await put(
                mediaKey, file: path, attributes: .media(named: key, metadata: [Self.hashName: hash]), createOnly: true)
        } catch MediaStoreError.alreadyExists {
            guard try await head(mediaKey)?.metadata[Self.hashName] == hash else {
                throw MediaStoreError.alreadyExists(key: key)
            }
        }
    }
}
