package import Catalog
internal import GRDB

extension SQLiteCatalogEngine {
    /// Which of `ids` are published videos: one indexed read for all of them (the viewer events' check, on a batch's
    /// distinct videos).
    /// - Throws: `CatalogError` when the catalog cannot be read.
    package func publishedVideoIDs(among ids: [String]) async throws(CatalogError) -> Set<String> {
        let wanted = Array(Set(ids))
        guard !wanted.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: wanted.count).joined(separator: ", ")
        return try await read { db in
            Set(
                try String.fetchAll(
                    db, sql: "SELECT id FROM videos WHERE status = 'published' AND id IN (\(placeholders))",
                    arguments: StatementArguments(wanted)))
        }
    }
}
