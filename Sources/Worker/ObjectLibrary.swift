internal import FileSystem
internal import MediaModel
internal import NIOCore
internal import NIOPosix
package import ObjectStore

/// A worker's library in object storage (`--library s3://...`): the originals, the outputs of each claim and the
/// reason files, laid out by `ObjectLayout`. The worker's own directory then holds only what one host works on (its
/// scratch space): uploads taken from its inbox, and each claim's staging. Disk work runs on NIO's thread pool.
package struct ObjectLibrary: Sendable {
    package let client: S3Client
    /// How long an upload that was written but never committed (or an original without a job) is left alone before
    /// the sweep deals with it. Long enough for any claim still uploading; outputs are never read before the commit.
    package var graceSeconds = 600.0
    /// How often one worker lists the store for the sweep (each sweep lists `videos/`, `images/` and `originals/`).
    package var sweepSeconds = 60.0
    /// Output files uploaded at once.
    package var parallelUploads = 4

    package init(client: S3Client) { self.client = client }

    /// The user-metadata name under which every object carries its SHA-256 (the name `reel library copy` uses).
    static let hashName = LibraryCopy.hashName

    /// Stores the upload at `path` as `originals/<id>`, once. A retry after a crash finds the same bytes there (by
    /// their hash) and is done; other bytes under the key are an error, and nothing is replaced.
    func storeOriginal(id: String, from path: String) async throws {
        let key = try ObjectKey(ObjectLayout.original(id))
        let hash = try await NIOThreadPool.singleton.runIfActive { try ContentHash.sha256(ofFile: path) }
        do {
            try await client.upload(
                file: path, to: key, contentType: "application/octet-stream", cacheControl: "private, no-store",
                metadata: [Self.hashName: hash], createOnly: true)
        } catch let error as ObjectStoreError where error.reason == .preconditionFailed {
            guard let existing = try await client.head(key), existing.metadata[Self.hashName] == hash else {
                throw ObjectStoreError(
                    .preconditionFailed,
                    "\(key) already holds other bytes than \(path): nothing was replaced")
            }
        }
    }

    /// Fetches `originals/<id>` into `path` and checks it against the hash it was stored with.
    /// - Returns: false when there is no such object.
    /// - Throws: `ObjectStoreError`, or `FileSystemError` (a full scratch disk is `isDiskFull`).
    func fetchOriginal(id: String, to path: String) async throws -> Bool {
        let key = try ObjectKey(ObjectLayout.original(id))
        guard let info = try await client.head(key) else { return false }
        do {
            try await client.download(key, to: path)
        } catch let error as ObjectStoreError where error.reason == .notFound {
            return false
        }
        if let recorded = info.metadata[Self.hashName] {
            let hash = try await NIOThreadPool.singleton.runIfActive { try ContentHash.sha256(ofFile: path) }
            guard hash == recorded else {
                try? await NIOThreadPool.singleton.runIfActive { Directory.remove(path) }
                throw ObjectStoreError(
                    .badResponse, "\(key) arrived with sha256 \(hash), not the recorded \(recorded)")
            }
        }
        return true
    }

    /// Uploads every file under `root/folder` to `prefix/<path below folder>`, create-only, a few at a time, each
    /// with its media headers and hash. `afterEach` runs after each file is up (the lease's renewal; a test's kill
    /// point), and a failure there stops the upload.
    /// - Returns: how many objects were written.
    func uploadOutputs(
        root: String, folder: String, under prefix: String, afterEach: @Sendable (Int) async throws -> Void = { _ in }
    ) async throws -> Int {
        let files = try await NIOThreadPool.singleton.runIfActive {
            try LibraryCopy.localFiles(root: root, folders: [folder])
        }
        let jobs = files.map { file in
            (path: root + "/" + file.path, key: prefix + "/" + file.path.dropFirst(folder.count + 1))
        }
        var next = 0
        var done = 0
        try await withThrowingTaskGroup(of: Void.self) { group in
            func add() {
                let job = jobs[next]
                next += 1
                group.addTask { try await self.uploadOutput(file: job.path, to: job.key) }
            }
            while next < min(parallelUploads, jobs.count) { add() }
            while try await group.next() != nil {
                done += 1
                try await afterEach(done)
                if next < jobs.count { add() }
            }
        }
        return done
    }

    /// One published file: create-only, with the `Content-Type` and `Cache-Control` its name calls for and its hash.
    /// A key already there with the same hash is this claim's own earlier try (a retried request that had landed).
    func uploadOutput(file path: String, to key: String) async throws {
        let objectKey = try ObjectKey(key)
        let hash = try await NIOThreadPool.singleton.runIfActive { try ContentHash.sha256(ofFile: path) }
        let contentType = MediaPolicy.contentType(forName: key[...])
        do {
            try await client.upload(
                file: path, to: objectKey, contentType: contentType,
                cacheControl: MediaPolicy.cacheControl(forContentType: contentType), metadata: [Self.hashName: hash],
                createOnly: true)
        } catch let error as ObjectStoreError where error.reason == .preconditionFailed {
            guard try await client.head(objectKey)?.metadata[Self.hashName] == hash else { throw error }
        }
    }

    /// Every object a claim wrote, removed; failures are left to the sweep.
    /// - Returns: how many were removed.
    @discardableResult
    func removeOutputs(of claim: ObjectLayout.Claim) async -> Int {
        let keys: [String]
        do {
            let image = ObjectLayout.image(claim.id, epoch: claim.epoch)
            keys =
                try await client.list(prefix: ObjectLayout.video(claim.id, epoch: claim.epoch) + "/").map(\.key)
                + (try await client.head(ObjectKey(image)) != nil ? [image] : [])
        } catch {
            return 0
        }
        return await remove(keys: keys)
    }

    /// `keys` removed one by one; failures are left to the next sweep.
    /// - Returns: how many were removed.
    func remove(keys: [String]) async -> Int {
        var removed = 0
        for key in keys {
            guard let objectKey = try? ObjectKey(key), (try? await client.delete(objectKey)) != nil else { continue }
            removed += 1
        }
        return removed
    }

    /// `rejected/<id>.reason.json` or `failed/<id>.reason.json`.
    func storeReason(id: String, rejected: Bool, json: [UInt8]) async throws {
        try await client.put(
            try ObjectKey(ObjectLayout.reason(id, rejected: rejected)), bytes: .init(bytes: json),
            contentType: "application/json", cacheControl: "private, no-store")
    }

    /// Removes `originals/<id>` (a byte-identical re-upload's copy, once the catalog records it as a duplicate).
    func removeOriginal(id: String) async throws {
        try await client.delete(try ObjectKey(ObjectLayout.original(id)))
    }

    func originalExists(id: String) async throws -> Bool {
        try await client.head(try ObjectKey(ObjectLayout.original(id))) != nil
    }
}
