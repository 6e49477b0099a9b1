import Catalog
import Testing

/// The schema drift check: a fresh catalog on each engine holds exactly the tables, columns (type, NOT NULL),
/// primary keys and named indexes (columns, order, unique, partial) of `CatalogSchema.current`, read back from the database itself. A migration on one
/// engine only, or a description not updated with it, fails here, naming the table.
@Suite(.timeLimit(.minutes(5))) struct CatalogSchemaConformanceTests {
    @Test(arguments: CatalogEngine.allCases)
    func aFreshCatalogHoldsTheDescribedTables(engine: CatalogEngine) async throws {
        let found = try await engine.withStore { store in
            let reader = try #require(store as? any CatalogSchemaReading, "the \(engine) engine reads its own schema")
            return try await reader.actualSchema()
        }.normalized
        let described = CatalogSchema.current.normalized
        #expect(found.tables.map(\.name) == described.tables.map(\.name), "the \(engine) catalog's tables")
        for table in described.tables {
            let actual = found.table(table.name)
            #expect(
                actual == table,
                """
                the \(engine) catalog's \(table.name) drifted from CatalogSchema.current
                found:
                \(actual.map(\.description) ?? "no such table")
                described:
                \(table)
                """)
        }
    }

    @Test func theDescriptionNamesEachTableColumnAndIndexOnce() {
        let tables = CatalogSchema.current.tables
        #expect(Set(tables.map(\.name)).count == tables.count)
        let indexes = tables.flatMap(\.indexes).map(\.name)
        #expect(Set(indexes).count == indexes.count, "index names are per database, not per table")
        for table in tables {
            let columns = table.columns.map(\.name)
            #expect(Set(columns).count == columns.count, "\(table.name)")
            let unknownKeys = table.primaryKey.filter { !columns.contains($0) }
            #expect(!table.primaryKey.isEmpty && unknownKeys.isEmpty, "\(table.name): key \(table.primaryKey)")
            let nullableKeys = table.columns.filter { table.primaryKey.contains($0.name) && !$0.isNotNull }.map(\.name)
            #expect(nullableKeys.isEmpty, "\(table.name): a key column is NOT NULL")
            for index in table.indexes {
                let unknown = index.columns.map { String($0.split(separator: " ")[0]) }.filter { !columns.contains($0) }
                #expect(!index.columns.isEmpty && unknown.isEmpty, "\(table.name): \(index)")
            }
        }
    }
}
