internal import Catalog
internal import FileSystem
internal import Foundation
internal import Logging
internal import MediaModel
internal import MediaStore
internal import NIOCore

extension Worker {
    /// One scan of the inbox: refuses what is not a regular file, and takes each regular file whose size and
    /// mtime have settled, with its sidecar (`NAME.json`) once that has settled too. Ignored names (dotfiles, .part,
    /// .tmp, .crdownload) are left alone, and a sidecar is never an upload. A failure with one upload is logged and
    /// the scan goes on with the next.
    func intake() async throws(FileSystemError) {
        let listingStarted = Self.monotonic
        let wallClock = Int64(Date().timeIntervalSince1970 * 1e9)
        let entries = try Directory.entries(of: configuration.inbox).filter { !$0.isIgnored }
        let listingEnded = Self.monotonic
        tracker.keepOnly(Set(entries.map(\.name)))
        let sidecars = Dictionary(
            entries.filter(\.isSidecar).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var settledSidecars: Set<[UInt8]> = []
        for sidecar in sidecars.values
        where sidecar.kind == .regular
            && tracker.isStable(
                name: sidecar.name, size: sidecar.size, modified: sidecar.modified, listingStarted: listingStarted,
                listingEnded: listingEnded, wallClockAtListingStart: wallClock, changed: sidecar.changed)
        {
            settledSidecars.insert(sidecar.name)
        }
        for entry in entries where !entry.isSidecar {
            if disk.isPaused { return }
            let name = SourceName(entry.name)
            do {
                if entry.kind != .regular {
                    try await refuseNotRegular(entry)
                } else if tracker.isStable(
                    name: entry.name, size: entry.size, modified: entry.modified,
                    listingStarted: listingStarted, listingEnded: listingEnded, wallClockAtListingStart: wallClock,
                    changed: entry.changed)
                {
                    let sidecar = sidecars[entry.sidecarName]
                    // An upload waits for its sidecar to settle, as for its own bytes.
                    if let sidecar, !settledSidecars.contains(sidecar.name) { continue }
                    try await take(entry, sidecar: sidecar)
                }
            } catch {
                if Self.isDiskFull(error) { noteDiskFull(error) }
                tracker.forget(entry.name)
                logger.error(
                    "cannot take an upload; it stays in the inbox",
                    metadata: ["file": "\(name.display)", "error": "\(error)"])
            }
        }
    }

    /// Moves the upload to `.incoming/<id>` under a new job. The job row comes first, so a crash at any point
    /// leaves either the file in the inbox (and the row is dropped at recovery) or the file with its job.
    /// The move is the claim: when two workers race, one rename succeeds and the other finds the name gone. Where
    /// other hosts do not see this host's scratch directory, the upload is stored as `originals/<id>` before its job
    /// is released, so any host can fetch it.
    ///
    /// A sidecar's facts go into the job's row with it, and the sidecar leaves the inbox once the upload has. A
    /// sidecar that is not valid rejects its upload (`invalid_metadata`, saying which field and limit), and is kept
    /// beside the reason file.
    func take(_ entry: DirectoryEntry, sidecar: DirectoryEntry? = nil) async throws {
        let id = Self.newID()
        let name = SourceName(entry.name)
        let lease = JobLease(id: id, epoch: 0, owner: owner)
        var post = PostFacts()
        var sidecarBytes: [UInt8] = []
        var refusal: Rejection?
        if let sidecar {
            do {
                guard let file = String(validating: sidecar.name, as: UTF8.self) else {
                    throw PostSidecar.Invalid(message: "the sidecar's name is not UTF-8, so it is not read")
                }
                sidecarBytes = try ReadOnlyFile.contents(
                    of: configuration.inbox + "/" + file, limit: PostSidecar.maximumBytes)
                post = try PostSidecar.facts(from: sidecarBytes)
            } catch let error as PostSidecar.Invalid {
                refusal = Rejection(.invalidMetadata, error.message, path: SourceName(sidecar.name).display)
            } catch let error as ReadOnlyFile.OpenError {
                if case .failed(let failure) = error, failure.isNotFound { return }  // taken with its upload
                refusal = Rejection(
                    .invalidMetadata, "the sidecar cannot be read: \(error)", path: SourceName(sidecar.name).display)
            }
        }
        try await store.insertJob(
            id: id, sourceName: entry.name, bytes: Int(entry.size), post: post, owner: owner,
            now: Self.nowMilliseconds, leaseMilliseconds: leaseMilliseconds)
        do {
            try Directory.move(entry: entry.name, in: configuration.inbox, to: scratch.incoming(id))
        } catch {
            try await store.deleteJob(lease)
            tracker.forget(entry.name)
            if error.isNotFound { return }  // another worker took it
            throw error
        }
        tracker.forget(entry.name)
        // From here the upload is safe in the library; the rest is bookkeeping that recovery redoes if it fails.
        try Directory.sync(scratch.incoming)
        if let sidecar {
            // Its facts are in the job's row; a refused one is kept beside the reason file.
            if refusal != nil {
                try? await library.put(
                    try MediaKey(LibraryLayout.rejectedSidecar(id)), bytes: ByteBuffer(bytes: sidecarBytes),
                    attributes: .private(contentType: "application/json"), createOnly: false)
            }
            tracker.forget(sidecar.name)
            try? Directory.removeEntry(sidecar.name, in: configuration.inbox)
        }
        try Directory.sync(configuration.inbox)
        if let refusal {
            try await store.finishJob(lease, as: .rejected(refusal), now: Self.nowMilliseconds)
            guard let job = try await store.job(id: id) else { return }
            await fileVerdict(job, state: .rejected, reason: .rejected(refusal.reason), message: refusal.message)
            report(
                id: id, name: name, state: .rejected, kind: .unknown, reason: .rejected(refusal.reason),
                message: refusal.message, mediaID: nil, attempts: 0, seconds: 0)
            return
        }
        if !configuration.scratchIsShared {
            // Other hosts fetch it from the library: the job is released only once the original is there.
            do {
                try await storeOriginal(id)
            } catch {
                if Self.isDiskFull(error) { noteDiskFull(error) }
                logger.warning(
                    "upload kept in scratch space until the library takes it; recovery stores it",
                    metadata: ["job": "\(id)", "file": "\(name.display)", "error": "\(error)"])
                return
            }
        }
        try await store.release(lease, now: Self.nowMilliseconds)
        logger.info("upload queued", metadata: ["job": "\(id)", "file": "\(name.display)", "bytes": "\(entry.size)"])
    }

    /// A symlink, FIFO, socket, device or directory is never opened: it moves (as itself, unfollowed) to the scratch
    /// directory's `rejected/<id>` (the library's, when that is shared), and its reason goes to the library's
    /// `rejected/<id>.reason.json`.
    func refuseNotRegular(_ entry: DirectoryEntry) async throws {
        let id = Self.newID()
        let name = SourceName(entry.name)
        let kind = entry.kind.rawValue.replacingOccurrences(of: "_", with: " ")
        let rejection = Rejection(
            .notRegularFile, "the upload is a \(kind), not a regular file; only regular files are processed",
            path: name.display)
        let lease = JobLease(id: id, epoch: 0, owner: owner)
        try await store.insertJob(
            id: id, sourceName: entry.name, bytes: 0, owner: owner, now: Self.nowMilliseconds,
            leaseMilliseconds: leaseMilliseconds)
        do {
            try Directory.move(entry: entry.name, in: configuration.inbox, to: scratch.refused(id))
        } catch {
            try await store.deleteJob(lease)
            if error.isNotFound { return }
            throw error
        }
        try await store.finishJob(lease, as: .rejected(rejection), now: Self.nowMilliseconds)
        try Directory.sync(scratch.refused)
        try Directory.sync(configuration.inbox)
        try await writeReason(
            for: id, state: .rejected, reason: .rejected(rejection.reason),
            message: rejection.message, name: name, bytes: 0, contentHash: nil)
        report(
            id: id, name: name, state: .rejected, kind: .unknown, reason: .rejected(rejection.reason),
            message: rejection.message,
            mediaID: nil, attempts: 0, seconds: 0)
    }

    /// `rejected/<id>.reason.json` or `failed/<id>.reason.json` in the library: what happened and why, with the
    /// original name (as text, and as raw bytes when it is not UTF-8). Written whole, durably.
    func writeReason(
        for id: String, state: FeedJob.State, reason: JobReason, message: String, name: SourceName, bytes: Int,
        contentHash: String?
    ) async throws {
        let key = try MediaKey(LibraryLayout.reason(id, rejected: state == .rejected))
        #if REEL_TEST_HOOKS
        try configuration.faults.check(.writeReason, path: key.value)
        #endif
        let json = try Self.reasonJSON(
            for: id, state: state, reason: reason, message: message, name: name, bytes: bytes, contentHash: contentHash)
        try await library.put(
            key, bytes: ByteBuffer(bytes: json), attributes: .private(contentType: "application/json"),
            createOnly: false)
    }

    /// The upload taken into `.incoming/<id>`, stored as the library's `originals/<id>` once: a retry after a crash
    /// finds the same bytes there (by their hash) and is done; other bytes under the key are an error, and nothing
    /// is replaced.
    func storeOriginal(_ id: String) async throws {
        try await library.storeOnce(
            file: scratch.incoming(id), at: try MediaKey(LibraryLayout.original(id)), attributes: .private())
    }

    /// The reason file's contents.
    static func reasonJSON(
        for id: String, state: FeedJob.State, reason: JobReason, message: String, name: SourceName, bytes: Int,
        contentHash: String?
    ) throws -> [UInt8] {
        var fields: [String: Any] = [
            "job": id, "state": state.rawValue, "reason": reason.code, "message": message,
            "original_name": name.display, "bytes": bytes,
        ]
        if !name.isValidUTF8 { fields["original_name_base64"] = name.base64 }
        if let contentHash { fields["content_hash"] = contentHash }
        return Array(try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .prettyPrinted]))
    }
}
