package import Catalog
internal import PostgresNIO

extension PostgresCatalogEngine: CatalogSchemaReading {
    /// The tables as PostgreSQL reports them (`information_schema`, and `pg_index` for the indexes created by name
    /// rather than by a PRIMARY KEY or UNIQUE constraint, with their key columns, DESC, unique and partial), without
    /// the migration log.
    /// - Throws: `CatalogError` when the server cannot be read or a column has a type the catalog does not use.
    package func actualSchema() async throws(CatalogError) -> CatalogSchema {
        let operation = "read the catalog's schema"
        let columnRows = try await rows(
            operation,
            """
            SELECT table_name::text AS t, column_name::text AS c, data_type::text AS type, is_nullable::text AS nullable
            FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name != 'schema_migrations'
            ORDER BY table_name, ordinal_position
            """)
        let keyRows = try await rows(
            operation,
            """
            SELECT tc.table_name::text AS t, kcu.column_name::text AS c
            FROM information_schema.table_constraints tc
            JOIN information_schema.key_column_usage kcu
                ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
                AND kcu.table_name = tc.table_name
            WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_schema = current_schema()
            ORDER BY tc.table_name, kcu.ordinal_position
            """)
        let indexRows = try await rows(
            operation,
            """
            SELECT t.relname::text AS t, i.relname::text AS i, x.indisunique AS u, (x.indpred IS NOT NULL) AS p,
                array_to_string(ARRAY(
                    SELECT pg_get_indexdef(x.indexrelid, k + 1, true)
                        || CASE WHEN (x.indoption[k] & 1) = 1 THEN ' DESC' ELSE '' END
                    FROM generate_subscripts(x.indkey, 1) AS k WHERE k < x.indnkeyatts ORDER BY k), ',') AS columns
            FROM pg_index x
            JOIN pg_class i ON i.oid = x.indexrelid
            JOIN pg_class t ON t.oid = x.indrelid
            JOIN pg_namespace n ON n.oid = t.relnamespace
            WHERE n.nspname = current_schema() AND t.relname != 'schema_migrations'
                AND NOT EXISTS (
                    SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid AND k.contype IN ('p', 'u', 'x'))
            """)
        var columns: [String: [CatalogSchema.Column]] = [:], keys: [String: [String]] = [:]
        var indexes: [String: [CatalogSchema.Index]] = [:], order: [String] = []
        for row in columnRows {
            let (table, name, type, nullable) = try Self.decode(operation) {
                (
                    try row.value("t", as: String.self), try row.value("c", as: String.self),
                    try row.value("type", as: String.self), try row.value("nullable", as: String.self)
                )
            }
            let known: CatalogSchema.ColumnType
            switch type {
            case "bigint", "integer": known = .integer
            case "double precision": known = .real
            case "text": known = .text
            case "bytea": known = .blob
            default: throw CatalogError(.other, "\(table).\(name) has type \(type), which the catalog never uses")
            }
            if columns[table] == nil { order.append(table) }
            columns[table, default: []].append(CatalogSchema.Column(name, known, notNull: nullable == "NO"))
        }
        for row in keyRows {
            let (table, column) = try Self.decode(operation) {
                (try row.value("t", as: String.self), try row.value("c", as: String.self))
            }
            keys[table, default: []].append(column)
        }
        for row in indexRows {
            let (table, index, unique, partial, keyColumns) = try Self.decode(operation) {
                (
                    try row.value("t", as: String.self), try row.value("i", as: String.self),
                    try row.value("u", as: Bool.self), try row.value("p", as: Bool.self),
                    try row.value("columns", as: String.self)
                )
            }
            let columns = keyColumns.split(separator: ",").map(String.init)
            indexes[table, default: []].append(
                CatalogSchema.Index(index, on: columns, unique: unique, partial: partial))
        }
        return CatalogSchema(
            tables: order.map { table in
                CatalogSchema.Table(
                    table, primaryKey: keys[table] ?? [], columns: columns[table] ?? [], indexes: indexes[table] ?? [])
            })
    }
}
