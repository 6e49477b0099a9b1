package import Catalog
internal import GRDB

extension SQLiteCatalogEngine: CatalogSchemaReading {
    /// The tables as SQLite reports them (`PRAGMA table_info`, the indexes `CREATE INDEX` made), without SQLite's
    /// own tables and GRDB's migration log.
    /// - Throws: `CatalogError` when the file cannot be read or a column has a type the catalog does not use.
    package func actualSchema() async throws(CatalogError) -> CatalogSchema {
        typealias Found = (name: String, key: [String], columns: [(String, String, Bool)], indexes: [String])
        let found: [Found] = try await read { db in
            let tables = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master
                    WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations' ORDER BY name
                    """)
            return try tables.map { table in
                // A PRIMARY KEY column is never NULL in the catalog, though SQLite lets a rowid table's be.
                let columns = try db.columns(in: table).map {
                    ($0.name, $0.type, $0.isNotNull || $0.primaryKeyIndex > 0)
                }
                let indexes = try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
                    arguments: [table])
                return (table, try db.primaryKey(table).columns, columns, indexes)
            }
        }
        return CatalogSchema(
            tables: try found.map { table throws(CatalogError) in
                CatalogSchema.Table(
                    table.name, primaryKey: table.key,
                    columns: try table.columns.map { name, type, notNull throws(CatalogError) in
                        guard let known = CatalogSchema.ColumnType(rawValue: type.uppercased()) else {
                            throw CatalogError(
                                .other, "\(table.name).\(name) has type \(type), which the catalog never uses")
                        }
                        return CatalogSchema.Column(name, known, notNull: notNull)
                    }, indexes: table.indexes)
            })
    }
}
