internal import Foundation

/// A ranking's video ids as every engine stores them: one JSON array of strings, read and written whole (a ranking
/// is only ever read whole, and then kept in memory by the feed server).
package enum RankingJSON {
    package static func encode(_ videos: [String]) throws(CatalogError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(videos), as: UTF8.self)
        } catch {
            throw CatalogError(.other, "a ranking of \(videos.count) videos cannot be stored: \(error)")
        }
    }

    /// - Throws: `CatalogError` `.other` when the stored text is not a ranking this code wrote.
    package static func decode(_ json: String) throws(CatalogError) -> [String] {
        do {
            return try JSONDecoder().decode([String].self, from: Data(json.utf8))
        } catch {
            throw CatalogError(.other, "a stored ranking does not read back: \(error)")
        }
    }
}
