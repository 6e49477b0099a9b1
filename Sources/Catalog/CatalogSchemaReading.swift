/// An engine that can say which tables, columns and indexes its catalog really has, read from the database itself
/// (SQLite's `PRAGMA`s, PostgreSQL's `information_schema` and `pg_catalog`): what the drift test compares with
/// `CatalogSchema.current`.
package protocol CatalogSchemaReading: Sendable {
    /// The catalog's tables as the database reports them, migration bookkeeping left out.
    /// - Throws: `CatalogError` when the database cannot be read.
    func actualSchema() async throws(CatalogError) -> CatalogSchema
}
