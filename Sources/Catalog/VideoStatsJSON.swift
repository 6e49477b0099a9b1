internal import Foundation
package import ViewerAnalytics

/// A video's figures as the `video_stats` table holds them on every engine: the JSON `GET /v1/videos/{id}/stats`
/// answers with, so a new figure needs no new column.
package enum VideoStatsJSON {
    /// - Throws: `CatalogError` `.other` when a figure cannot be written (not a finite number).
    package static func encode(_ stats: VideoStats) throws(CatalogError) -> String {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return String(decoding: try encoder.encode(stats), as: UTF8.self)
        } catch {
            throw CatalogError(.other, "the figures of video \(stats.video) cannot be stored: \(error)")
        }
    }

    /// - Throws: `CatalogError` `.other` when the stored text is not figures this code wrote.
    package static func decode(_ json: String) throws(CatalogError) -> VideoStats {
        do {
            return try JSONDecoder().decode(VideoStats.self, from: Data(json.utf8))
        } catch {
            throw CatalogError(.other, "stored video figures do not read back: \(error)")
        }
    }
}
