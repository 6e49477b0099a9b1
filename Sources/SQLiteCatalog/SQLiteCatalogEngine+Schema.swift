package import Catalog
internal import GRDB

extension SQLiteCatalogEngine: CatalogSchemaReading {
    /// The tables as SQLite reports them (`PRAGMA table_info`, and `index_list`/`index_xinfo` for the indexes
    /// `CREATE INDEX` made), without SQLite's
    /// own tables and GRDB's migration log.
    /// - Throws: `CatalogError` when the file cannot be read or a column has a type the catalog does not use.
    package func actualSchema() async throws(CatalogError) -> CatalogSchema {
        typealias Found = (
            name: String, key: [String], columns: [(String, String, Bool)], indexes: [CatalogSchema.Index]
        )
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
                // `origin` c: made by CREATE INDEX (not by a PRIMARY KEY or UNIQUE constraint).
                let indexes = try Row.fetchAll(db, sql: "PRAGMA index_list(\(table.quotedDatabaseIdentifier))")
                    .filter { ($0["origin"] as String?) == "c" }
                    .map { row in
                        let name: String = row["name"]
                        // Key columns only (`key` = 1), in order; an expression has no name.
                        let columns = try Row.fetchAll(
                            db, sql: "PRAGMA index_xinfo(\(name.quotedDatabaseIdentifier))"
                        ).filter { ($0["key"] as Int?) == 1 }.map { column in
                            ((column["name"] as String?) ?? "(expression)")
                                + ((column["desc"] as Int?) == 1 ? " DESC" : "")
                        }
                        return CatalogSchema.Index(
                            name, on: columns, unique: (row["unique"] as Int?) == 1,
                            partial: (row["partial"] as Int?) == 1)
                    }
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
