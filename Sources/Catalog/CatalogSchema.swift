/// The catalog's tables as every engine holds them once migrated: each table's columns (name, type, NOT NULL), its
/// primary key and its named indexes (their columns in order, each ascending or descending, unique or not, partial or
/// not: what decides which queries an index serves). Migrations stay per engine (each in its own dialect); this is the one
/// description they must agree on, and `CatalogSchemaConformanceTests` opens a fresh catalog on each engine and fails
/// when what the engine made drifts from it. `reel db copy` copies the tables in this order, which every foreign key
/// accepts.
package struct CatalogSchema: Equatable, Sendable, CustomStringConvertible {
    package var tables: [Table]

    package init(tables: [Table]) { self.tables = tables }

    /// The table called `name`, if there is one.
    package func table(_ name: String) -> Table? { tables.first { $0.name == name } }

    /// One line per column and index, tables by name: what a failed comparison prints.
    package var description: String {
        tables.sorted { $0.name < $1.name }.map(\.description).joined(separator: "\n")
    }

    /// One table: its columns in any order, the primary key's columns in order, and the indexes created by name
    /// (not the ones a PRIMARY KEY or UNIQUE constraint makes by itself).
    package struct Table: Equatable, Sendable, CustomStringConvertible {
        package var name: String
        package var columns: [Column]
        package var primaryKey: [String]
        package var indexes: [Index]

        package init(_ name: String, primaryKey: [String], columns: [Column], indexes: [Index] = []) {
            self.name = name
            self.columns = columns
            self.primaryKey = primaryKey
            self.indexes = indexes
        }

        /// The same table with columns and indexes in name order, so two descriptions compare as sets.
        package var normalized: Table {
            Table(
                name, primaryKey: primaryKey, columns: columns.sorted { $0.name < $1.name },
                indexes: indexes.sorted { $0.name < $1.name })
        }

        package var description: String {
            let normal = normalized
            return
                (["\(name) PRIMARY KEY (\(primaryKey.joined(separator: ", ")))"]
                + normal.columns.map { "\(name).\($0)" } + normal.indexes.map { "\(name) \($0)" })
                .joined(separator: "\n")
        }
    }

    /// A named index: its key columns in order, each with ` DESC` when it sorts descending; whether it is UNIQUE, and
    /// whether it is partial (a `WHERE`, whose text each engine writes its own way, so only its presence is compared).
    package struct Index: Equatable, Sendable, CustomStringConvertible {
        package var name: String
        package var columns: [String]
        package var isUnique: Bool
        package var isPartial: Bool

        package init(_ name: String, on columns: [String], unique: Bool = false, partial: Bool = false) {
            self.name = name
            self.columns = columns
            self.isUnique = unique
            self.isPartial = partial
        }

        package var description: String {
            "\(isUnique ? "UNIQUE " : "")INDEX \(name) (\(columns.joined(separator: ", ")))\(isPartial ? " WHERE ..." : "")"
        }
    }

    /// A column: its name, its kind of value and whether it may be NULL (a primary key's columns never may).
    package struct Column: Equatable, Sendable, CustomStringConvertible {
        package var name: String
        package var type: ColumnType
        package var isNotNull: Bool

        package init(_ name: String, _ type: ColumnType, notNull: Bool = false) {
            self.name = name
            self.type = type
            self.isNotNull = notNull
        }

        package var description: String { "\(name) \(type.rawValue)\(isNotNull ? " NOT NULL" : "")" }
    }

    /// The four kinds of value the catalog stores. SQLite's declared types, and PostgreSQL's: `bigint` or `integer`,
    /// `double precision`, `text`, `bytea`.
    package enum ColumnType: String, Equatable, Sendable {
        case integer = "INTEGER"
        case real = "REAL"
        case text = "TEXT"
        case blob = "BLOB"
    }

    /// The same schema with every table normalized and the tables in name order.
    package var normalized: CatalogSchema {
        CatalogSchema(tables: tables.map(\.normalized).sorted { $0.name < $1.name })
    }
}
