package import Catalog
internal import Logging
internal import NIOCore
internal import PostgresNIO

/// A post's visibility (`PostAccess`), as `SQLiteCatalogEngine+PostAccess` changes it. The generation's bump is
/// announced (NOTIFY): every server's feed and access checks see the change at once.
extension PostgresCatalogEngine {
    package func videoAccess(id: String) async throws(CatalogError) -> VideoAccess? {
        let operation = "read the access of video \(id)"
        let rows = try await rows(operation, "SELECT visibility, access_epoch FROM videos WHERE id = \(id)")
        return try Self.decode(operation) { try rows.first.map(Self.access(row:)) }
    }

    package func setVisibility(
        id: String, to visibility: Visibility, revokingLinks: Bool, now: Int64
    ) async throws(CatalogError) -> VideoAccess? {
        try await transaction("set the visibility of video \(id)") { connection in
            let logger = self.logger
            guard
                let before = try await connection.rows(
                    "SELECT visibility, access_epoch FROM videos WHERE id = \(id) FOR UPDATE", logger: logger
                ).first.map(Self.access(row:))
            else { return nil }
            let raise: Int64 = revokingLinks || (visibility == .private && before.visibility != .private) ? 1 : 0
            try await connection.query(
                """
                UPDATE videos SET visibility = \(visibility.rawValue), access_epoch = access_epoch + \(raise)
                WHERE id = \(id)
                """, logger: logger)
            if let video = try await Self.video(id: id, connection, logger: logger) {
                try await connection.query(
                    "UPDATE videos SET item_record = \(ByteBuffer(bytes: FeedVideoRecord.encode(video))) WHERE id = \(id)",
                    logger: logger)
            }
            try await connection.query(PostgresQuery(unsafeSQL: Self.bumpGenerationSQL), logger: logger)
            return VideoAccess(visibility: visibility, epoch: before.epoch + raise)
        }
    }

    static func access(row: PostgresRandomAccessRow) throws -> VideoAccess {
        VideoAccess(
            visibility: Visibility(rawValue: try row.value("visibility", as: String.self)) ?? .private,
            epoch: try row.value("access_epoch", as: Int64.self))
    }
}
