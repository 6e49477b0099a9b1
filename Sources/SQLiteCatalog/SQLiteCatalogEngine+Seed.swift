package import Catalog
internal import GRDB

extension SQLiteCatalogEngine {
    /// Inserts `count` synthetic published videos (3 renditions each) in batched transactions, for tests and
    /// benchmarks. Ids are zero-padded so they sort; published times (unix milliseconds) are one second apart, newest last.
    package func seed(count: Int, startingAt start: Int = 0, batch: Int = 50_000) async throws(CatalogError) {
        var done = 0
        while done < count {
            let size = min(batch, count - done)
            let first = start + done
            try await write { db in
                for n in first..<(first + size) {
                    try Self.insert(SyntheticVideos.video(n), db)
                }
                try Self.bumpGeneration(db)
            }
            done += size
        }
    }
}
