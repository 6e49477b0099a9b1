package import Catalog
internal import PostgresNIO

extension PostgresCatalogEngine {
    /// Which of `ids` are published videos: one statement for all of them (the viewer events' check, on a batch's
    /// distinct videos).
    /// - Throws: `CatalogError` when the catalog cannot be read.
    package func publishedVideoIDs(among ids: [String]) async throws(CatalogError) -> Set<String> {
        let wanted = Array(Set(ids))
        guard !wanted.isEmpty else { return [] }
        let operation = "find which of \(wanted.count) videos are published"
        let rows = try await rows(
            operation, "SELECT id FROM videos WHERE id = ANY(\(wanted)) AND status = 'published'")
        return try Self.decode(operation) { Set(try rows.map { try $0.value("id", as: String.self) }) }
    }
}
