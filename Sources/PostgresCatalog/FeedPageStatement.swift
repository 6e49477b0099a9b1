internal import PostgresNIO

/// The feed's one query as a prepared statement: each connection parses and plans it once. Planning the page query
/// (its lateral join and keyset condition) cost more than running it: pgbench on 200,000 videos, 16 clients, made
/// 11,000 pages/s re-planning each and 32,800/s prepared.
struct FeedPageStatement: PostgresPreparedStatement {
    typealias Row = (generation: Int64, publishedAt: Int64?, id: String?, itemJSON: String?)

    static let sql = PostgresFeedStore.pageSQL
    static let bindingDataTypes: [PostgresDataType] = [.int8, .text, .int8]

    let publishedAt: Int64
    let id: String
    let limit: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(publishedAt)
        bindings.append(id)
        bindings.append(Int64(limit))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode((Int64, Int64?, String?, String?).self)
    }
}
