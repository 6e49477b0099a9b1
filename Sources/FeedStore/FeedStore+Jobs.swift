public import GRDB
internal import Foundation

extension FeedStore {
    /// One job by id, or nil.
    public func job(id: String) throws -> FeedJob? {
        try database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM jobs WHERE id = ?", arguments: [id]).map(FeedJob.init(row:))
        }
    }
}

extension FeedJob {
    init(row: Row) {
        self.init(id: row["id"], kind: Kind(rawValue: row["kind"]) ?? .unknown, state: State(rawValue: row["state"]) ?? .queued,
                  attempts: row["attempts"], reason: row["reason"], lastError: row["last_error"], progress: row["progress"],
                  createdAt: row["created_at"], updatedAt: row["updated_at"], mediaID: row["media_id"])
        sourceName = (row["source_name"] as Data?).map { Array($0) } ?? []
        owner = row["owner"]
        contentHash = row["content_hash"]
    }
}
