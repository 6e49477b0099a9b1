import Catalog
import FeedServer
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import MediaModel
import SQLiteCatalog
import Testing

/// Issue 61: a published video's loudness reaches the client in its feed item, `/v1/videos/{id}` and its job, so a
/// client that normalises by itself can; a video without one has no `loudness` key.
@Suite(.timeLimit(.minutes(5))) struct LoudnessRoutesTests {
    let rig: ServerRig
    init() throws { rig = try ServerRig() }

    static let loudness = AudioLoudness(
        sourceLUFS: -38.6, sourceTruePeakDBTP: -21.5, gainDB: 20, targetLUFS: -14, truePeakCeilingDBTP: -1,
        isLimited: false, isCapped: true, isSilent: false)

    @Test func theItemTheVideoAndTheJobCarryTheLoudness() async throws {
        var measuredVideo = SyntheticVideos.video(0)
        measuredVideo.loudness = Self.loudness
        try await rig.store.publish(measuredVideo)
        let id = measuredVideo.id
        try await rig.store.publish(SyntheticVideos.video(1))  // published without a loudness
        try await rig.store.database.pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO jobs (id, kind, source_name, state, attempts, progress, created_at, updated_at, media_id)
                    VALUES ('j1', 'video', X'6162', 'published', 1, 1, 1, 2, ?)
                    """, arguments: [id])
        }
        try await rig.app.test(.router) { client in
            let page = try await client.json("/v1/feed")
            let items = try #require(page["items"] as? [[String: Any]])
            let measured = try #require(items.first { $0["id"] as? String == id })
            let other = try #require(items.first { $0["id"] as? String != id })
            #expect(other["loudness"] == nil)
            for object in [
                measured["loudness"], try await client.json("/v1/videos/\(id)")["loudness"],
                try await client.json("/v1/jobs/j1")["loudness"],
            ] {
                let loudness = try #require(object as? [String: Any])
                #expect(loudness["source_lufs"] as? Double == -38.6)
                #expect(loudness["source_true_peak_dbtp"] as? Double == -21.5)
                #expect(loudness["gain_db"] as? Double == 20)
                #expect(loudness["target_lufs"] as? Double == -14)
                #expect(loudness["true_peak_ceiling_dbtp"] as? Double == -1)
                #expect(loudness["capped"] as? Bool == true && loudness["limited"] as? Bool == false)
                #expect(loudness["silent"] as? Bool == false)
            }
        }
    }
}
