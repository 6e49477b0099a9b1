package import Catalog
internal import Foundation
internal import GRDB

/// A post's visibility (`PostAccess`).
extension SQLiteCatalogEngine {
    package func videoAccess(id: String) async throws(CatalogError) -> VideoAccess? {
        try await read { db in try Self.access(id: id, db) }
    }

    package func setVisibility(
        id: String, to visibility: Visibility, revokingLinks: Bool, now: Int64
    ) async throws(CatalogError) -> VideoAccess? {
        try await write { db in
            guard let before = try Self.access(id: id, db) else { return nil }
            let raise = revokingLinks || (visibility == .private && before.visibility != .private)
            try db.execute(
                sql: "UPDATE videos SET visibility = ?, access_epoch = access_epoch + ? WHERE id = ?",
                arguments: [visibility.rawValue, raise ? 1 : 0, id])
            // The edit trigger cleared the record; it is written again here, in the same transaction.
            if let video = try Self.video(id: id, db) {
                try db.execute(
                    sql: "UPDATE videos SET item_record = ? WHERE id = ?",
                    arguments: [Data(FeedVideoRecord.encode(video)), id])
            }
            try Self.bumpGeneration(db)
            return try Self.access(id: id, db)
        }
    }

    static func access(id: String, _ db: Database) throws -> VideoAccess? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT visibility, access_epoch FROM videos WHERE id = ?"), arguments: [id]
        ).map { VideoAccess(visibility: Visibility(rawValue: $0[0]) ?? .private, epoch: $0[1]) }
    }
}
