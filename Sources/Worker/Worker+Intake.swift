internal import Logging
internal import Transcode
internal import ChatImages
internal import MediaModel
internal import FeedStore
internal import FileSystem
internal import Foundation

extension Worker {
    /// One scan of the inbox: refuses what is not a regular file, and takes each regular file whose size and
    /// mtime have settled. Ignored names (dotfiles, .part, .tmp, .crdownload) are left alone.
    func intake() throws {
        let entries = try Directory.entries(of: configuration.inbox).filter { !$0.isIgnored }
        tracker.keepOnly(Set(entries.map(\.name)))
        let now = Self.monotonic
        for entry in entries {
            if entry.kind != .regular {
                try refuseNotRegular(entry)
            } else if tracker.isStable(name: entry.name, size: entry.size, modified: entry.modified, now: now) {
                try take(entry)
            }
        }
    }

    /// Moves the upload to `.incoming/<id>` under a new job. The job row comes first, so a crash at any point
    /// leaves either the file in the inbox (and the row is dropped at recovery) or the file with its job.
    /// The move is the claim: when two workers race, one rename succeeds and the other finds the name gone.
    func take(_ entry: DirectoryEntry) throws {
        let id = Self.newID()
        let name = SourceName(entry.name)
        try store.insertJob(id: id, sourceName: entry.name, bytes: Int(entry.size), owner: owner, now: Self.nowMilliseconds)
        do {
            try Directory.move(entry: entry.name, in: configuration.inbox, to: layout.incoming(id))
        } catch {
            try store.deleteJob(id: id)
            tracker.forget(entry.name)
            if !error.isNotFound {
                logger.error("cannot take an upload", metadata: ["file": "\(name.display)", "error": "\(error)"])
            }
            return
        }
        try Directory.sync(layout.incoming)
        try Directory.sync(configuration.inbox)
        try store.release(jobID: id, now: Self.nowMilliseconds)
        tracker.forget(entry.name)
        logger.info("upload queued", metadata: ["job": "\(id)", "file": "\(name.display)", "bytes": "\(entry.size)"])
    }

    /// A symlink, FIFO, socket, device or directory is never opened: it moves (as itself, unfollowed) to
    /// `rejected/<id>` beside its reason.
    func refuseNotRegular(_ entry: DirectoryEntry) throws {
        let id = Self.newID()
        let name = SourceName(entry.name)
        let kind = entry.kind.rawValue.replacingOccurrences(of: "_", with: " ")
        let message = "the upload is a \(kind), not a regular file; only regular files are processed"
        try store.insertJob(id: id, sourceName: entry.name, bytes: 0, owner: owner, now: Self.nowMilliseconds)
        try writeReason(in: layout.rejected, id: id, state: .rejected, reason: "not_regular_file", message: message, name: name,
                        bytes: 0, contentHash: nil)
        do {
            try Directory.move(entry: entry.name, in: configuration.inbox, to: layout.rejected + "/" + id)
        } catch {
            Directory.remove(reasonPath(in: layout.rejected, id: id))
            try store.deleteJob(id: id)
            if !error.isNotFound { logger.error("cannot move a non-regular upload", metadata: ["file": "\(name.display)", "error": "\(error)"]) }
            return
        }
        try Directory.sync(layout.rejected)
        try Directory.sync(configuration.inbox)
        try store.finishJob(id, state: .rejected, reason: "not_regular_file", message: message, now: Self.nowMilliseconds)
        report(id: id, name: name, state: .rejected, kind: .unknown, reason: "not_regular_file", message: message, mediaID: nil,
               attempts: 0, seconds: 0)
    }

    func reasonPath(in directory: String, id: String) -> String { directory + "/" + id + ".reason.json" }

    /// `<id>.reason.json`: what happened and why, with the original name (as text, and as raw bytes when it is not
    /// UTF-8). Written atomically before the upload is moved beside it.
    func writeReason(in directory: String, id: String, state: FeedJob.State, reason: String, message: String, name: SourceName,
                     bytes: Int, contentHash: String?) throws {
        var fields: [String: Any] = [
            "job": id, "state": state.rawValue, "reason": reason, "message": message,
            "original_name": name.display, "bytes": bytes,
        ]
        if !name.isValidUTF8 { fields["original_name_base64"] = name.base64 }
        if let contentHash { fields["content_hash"] = contentHash }
        let data = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .prettyPrinted])
        let path = reasonPath(in: directory, id: id)
        try data.write(to: URL(fileURLWithPath: path + ".tmp"))
        try Directory.syncTree(path + ".tmp")
        try? FileManager.default.removeItem(atPath: path)
        try Directory.move(path + ".tmp", to: path)
        try Directory.sync(directory)
    }
}
