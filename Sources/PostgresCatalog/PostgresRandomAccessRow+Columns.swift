internal import NIOCore
internal import PostgresNIO

/// Reading catalog rows by column name, as GRDB's `row["column"]` does on SQLite.
extension PostgresRandomAccessRow {
    /// The column decoded as `T` (an `Optional` for a nullable column). - Throws: `PostgresDecodingError` on a
    /// type mismatch or an unexpected NULL.
    func value<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        try self[column].decode(T.self)
    }

    /// A `bytea` column's bytes (source names and file names need not be UTF-8); empty when NULL.
    func bytes(_ column: String) throws -> [UInt8] {
        try value(column, as: ByteBuffer?.self).map { Array($0.readableBytesView) } ?? []
    }
}

extension ByteBuffer {
    /// Raw bytes bound as `bytea` (an `[UInt8]` would bind as an array of `"char"`).
    static func bytea(_ bytes: [UInt8]) -> ByteBuffer { ByteBuffer(bytes: bytes) }
}
