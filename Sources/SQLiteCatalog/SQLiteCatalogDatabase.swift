internal import Catalog
internal import Foundation
package import GRDB

/// The catalog's SQLite database: WAL (readers never wait for the publishing writer), `synchronous=FULL` (a commit
/// has reached the disk when it returns, so whatever Reel acknowledges survives a power loss), a busy timeout, and
/// versioned migrations applied at open.
package final class SQLiteCatalogDatabase: Sendable {
    package let pool: DatabasePool
    /// The feed's hot reads, outside GRDB (see SQLiteFeedReader).
    let feedReader: SQLiteFeedReader

    /// - Parameter busyTimeout: how long a writer waits for another connection's lock before `CatalogError.busy`.
    package init(path: String, busyTimeout: Double = 5) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        // GRDB sets its writer to synchronous=NORMAL after `prepareDatabase` has run (docs/quirks.md, "GRDB's WAL
        // pool commits without fsync"), so FULL goes on the writer connection once the pool is open. Readers never
        // commit, and synchronous is a connection's own setting.
        try pool.barrierWriteWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        try Self.migrator.migrate(pool)
        feedReader = try SQLiteFeedReader(path: path)
    }

    /// Opens an existing catalog for reading only, without migrating it: for tools that look at a library another
    /// process owns (`reel simulate --feed-catalog`), which must never change its file or its schema.
    package init(readOnlyPath path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        pool = try DatabasePool(path: path, configuration: configuration)
        feedReader = try SQLiteFeedReader(path: path)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: catalog") { db in
            try db.execute(
                sql: """
                    CREATE TABLE videos (
                        id TEXT PRIMARY KEY NOT NULL,
                        status TEXT NOT NULL CHECK (status IN ('processing', 'published', 'rejected', 'failed')),
                        created_at INTEGER NOT NULL,
                        published_at INTEGER,
                        duration_ms INTEGER NOT NULL,
                        width INTEGER NOT NULL,
                        height INTEGER NOT NULL,
                        content_hash TEXT NOT NULL UNIQUE,
                        source TEXT NOT NULL DEFAULT '{}',
                        master_path TEXT,
                        poster_jpeg_path TEXT,
                        poster_webp_path TEXT
                    );
                    -- The feed's only query: published videos, newest first, keyset on (published_at, id).
                    CREATE INDEX videos_feed ON videos (published_at DESC, id DESC) WHERE status = 'published';
                    CREATE TABLE renditions (
                        video_id TEXT NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
                        rung TEXT NOT NULL,
                        width INTEGER NOT NULL,
                        height INTEGER NOT NULL,
                        bandwidth INTEGER NOT NULL,
                        average_bandwidth INTEGER NOT NULL,
                        codecs TEXT NOT NULL,
                        segments INTEGER NOT NULL,
                        PRIMARY KEY (video_id, rung)
                    ) WITHOUT ROWID;
                    CREATE TABLE images (
                        id TEXT PRIMARY KEY NOT NULL,
                        created_at INTEGER NOT NULL,
                        width INTEGER NOT NULL,
                        height INTEGER NOT NULL,
                        bytes INTEGER NOT NULL,
                        path TEXT NOT NULL,
                        content_hash TEXT NOT NULL UNIQUE
                    );
                    CREATE TABLE jobs (
                        id TEXT PRIMARY KEY NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('video', 'image')),
                        source_name BLOB NOT NULL,
                        state TEXT NOT NULL CHECK (state IN ('queued', 'processing', 'published', 'rejected', 'failed')),
                        attempts INTEGER NOT NULL DEFAULT 0,
                        last_error TEXT,
                        progress REAL NOT NULL DEFAULT 0,
                        created_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL,
                        not_before INTEGER NOT NULL DEFAULT 0,
                        media_id TEXT
                    );
                    CREATE INDEX jobs_queue ON jobs (state, not_before, created_at);
                    """)
        }
        migrator.registerMigration("v2: worker jobs") { db in
            // The worker claims, retries and recovers jobs: who holds one (a lock-file token), what the upload hashed
            // to, why it ended, and a kind that is unknown until admission has looked at the bytes.
            try db.execute(
                sql: """
                    CREATE TABLE jobs_v2 (
                        id TEXT PRIMARY KEY NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('unknown', 'video', 'image')),
                        source_name BLOB NOT NULL,
                        source_bytes INTEGER NOT NULL DEFAULT 0,
                        state TEXT NOT NULL CHECK (state IN ('queued', 'processing', 'published', 'rejected', 'failed')),
                        owner TEXT,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        reason TEXT,
                        last_error TEXT,
                        progress REAL NOT NULL DEFAULT 0,
                        content_hash TEXT,
                        created_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL,
                        started_at INTEGER,
                        finished_at INTEGER,
                        not_before INTEGER NOT NULL DEFAULT 0,
                        media_id TEXT
                    );
                    INSERT INTO jobs_v2 (id, kind, source_name, state, attempts, last_error, progress, created_at, updated_at,
                                         not_before, media_id)
                        SELECT id, kind, source_name, state, attempts, last_error, progress, created_at, updated_at, not_before, media_id
                        FROM jobs;
                    DROP TABLE jobs;
                    ALTER TABLE jobs_v2 RENAME TO jobs;
                    CREATE INDEX jobs_queue ON jobs (state, not_before, created_at);
                    CREATE INDEX jobs_owner ON jobs (owner) WHERE owner IS NOT NULL;
                    """)
        }
        migrator.registerMigration("v3: catalog generation") { db in
            // One row whose value changes in every transaction that changes the feed (SQLiteCatalogEngine+Generation).
            // It starts at a random value so a catalog deleted and created again does not repeat old ETags.
            // The triggers catch edits made outside Reel (a takedown in the sqlite3 shell); the engine's own
            // inserts bump it once per transaction instead of once per row.
            try db.execute(
                sql: """
                    CREATE TABLE catalog_generation (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        value INTEGER NOT NULL
                    );
                    INSERT INTO catalog_generation (id, value) VALUES (1, abs(random() % 1000000000000));
                    CREATE TRIGGER videos_update_bumps_generation AFTER UPDATE ON videos
                        BEGIN UPDATE catalog_generation SET value = value + 1 WHERE id = 1; END;
                    CREATE TRIGGER videos_delete_bumps_generation AFTER DELETE ON videos
                        BEGIN UPDATE catalog_generation SET value = value + 1 WHERE id = 1; END;
                    CREATE TRIGGER renditions_update_bumps_generation AFTER UPDATE ON renditions
                        BEGIN UPDATE catalog_generation SET value = value + 1 WHERE id = 1; END;
                    CREATE TRIGGER renditions_delete_bumps_generation AFTER DELETE ON renditions
                        BEGIN UPDATE catalog_generation SET value = value + 1 WHERE id = 1; END;
                    """)
        }
        migrator.registerMigration("v4: upload tokens and uploads") { db in
            // Uploads over HTTP (tus): who may upload (only a token's SHA-256 is kept), and each unfinished
            // upload's declared length and acknowledged offset. `received` only grows after the bytes are fsynced.
            try db.execute(
                sql: """
                    CREATE TABLE upload_tokens (
                        id TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL UNIQUE,
                        hash TEXT NOT NULL UNIQUE,
                        rate_limit REAL,
                        created_at INTEGER NOT NULL,
                        revoked_at INTEGER
                    );
                    CREATE TABLE uploads (
                        id TEXT PRIMARY KEY NOT NULL,
                        token_id TEXT NOT NULL REFERENCES upload_tokens(id),
                        length INTEGER NOT NULL,
                        received INTEGER NOT NULL DEFAULT 0,
                        metadata TEXT NOT NULL,
                        filename BLOB NOT NULL,
                        created_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL,
                        expires_at INTEGER NOT NULL,
                        job_id TEXT,
                        finished_at INTEGER
                    );
                    CREATE INDEX uploads_expiry ON uploads (expires_at) WHERE finished_at IS NULL;
                    """)
        }
        migrator.registerMigration("v5: rendered feed items") { db in
            // Each video's finished feed item as JSON, so a page copied stored bytes instead of rendering them. The
            // triggers cleared it when an edit outside Reel changed what it showed. v12 replaces it with a
            // record of facts; the items are no longer rendered here, since v12 drops the column in the same run.
            try db.execute(
                sql: """
                    ALTER TABLE videos ADD COLUMN item_json TEXT;
                    CREATE TRIGGER videos_edit_clears_item
                        AFTER UPDATE OF id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path
                        ON videos WHEN NEW.item_json IS NOT NULL
                        BEGIN UPDATE videos SET item_json = NULL WHERE id = NEW.id; END;
                    CREATE TRIGGER renditions_insert_clears_item AFTER INSERT ON renditions
                        BEGIN UPDATE videos SET item_json = NULL WHERE id = NEW.video_id AND item_json IS NOT NULL; END;
                    CREATE TRIGGER renditions_update_clears_item AFTER UPDATE ON renditions
                        BEGIN UPDATE videos SET item_json = NULL WHERE id IN (OLD.video_id, NEW.video_id) AND item_json IS NOT NULL; END;
                    CREATE TRIGGER renditions_delete_clears_item AFTER DELETE ON renditions
                        BEGIN UPDATE videos SET item_json = NULL WHERE id = OLD.video_id AND item_json IS NOT NULL; END;
                    """)
        }
        migrator.registerMigration("v6: prefetch hints") { db in
            // Per rendition, what prefetching its start costs (PrefetchHint): NULL for videos published before.
            // Their stored items stay right, since they have no hints to show.
            try db.execute(
                sql: """
                    ALTER TABLE renditions ADD COLUMN init_bytes INTEGER;
                    ALTER TABLE renditions ADD COLUMN segment_duration_ms INTEGER;
                    ALTER TABLE renditions ADD COLUMN first_segments TEXT;
                    """)
        }
        migrator.registerMigration("v7: storyboards") { db in
            // Each video's scrubbing storyboard (MediaModel.Storyboard): NULL for videos published before, whose
            // stored items stay right since they have none to show. The edit trigger now watches these columns too.
            try db.execute(
                sql: """
                    ALTER TABLE videos ADD COLUMN storyboard_vtt_path TEXT;
                    ALTER TABLE videos ADD COLUMN storyboard_image_path TEXT;
                    ALTER TABLE videos ADD COLUMN storyboard_interval_s INTEGER;
                    ALTER TABLE videos ADD COLUMN storyboard_tile_width INTEGER;
                    ALTER TABLE videos ADD COLUMN storyboard_tile_height INTEGER;
                    ALTER TABLE videos ADD COLUMN storyboard_columns INTEGER;
                    ALTER TABLE videos ADD COLUMN storyboard_count INTEGER;
                    DROP TRIGGER videos_edit_clears_item;
                    CREATE TRIGGER videos_edit_clears_item
                        AFTER UPDATE OF id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path,
                                        storyboard_vtt_path, storyboard_image_path, storyboard_interval_s, storyboard_tile_width,
                                        storyboard_tile_height, storyboard_columns, storyboard_count
                        ON videos WHEN NEW.item_json IS NOT NULL
                        BEGIN UPDATE videos SET item_json = NULL WHERE id = NEW.id; END;
                    """)
        }
        migrator.registerMigration("v8: job leases") { db in
            // Workers on many hosts: each claim raises `epoch` (the fencing token every later transition proves) and
            // holds the job until `lease_expires_at` (unix ms), renewed by a heartbeat; anyone re-queues an expired one.
            try db.execute(
                sql: """
                    ALTER TABLE jobs ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE jobs ADD COLUMN lease_expires_at INTEGER;
                    """)
        }
        migrator.registerMigration("v9: claimable jobs index") { db in
            // Exactly the jobs a claim may take, in its order: a claim stays one short index descent however many
            // jobs the table holds (PostgreSQL's v3 is the same index).
            try db.execute(
                sql:
                    "CREATE INDEX jobs_claimable ON jobs (not_before, created_at) WHERE state = 'queued' AND owner IS NULL"
            )
        }
        migrator.registerMigration("v10: rendition codecs and rates") { db in
            // Per rendition, its video codec (H.264, HEVC or AV1 beside each other in one ladder), the CRF it was
            // encoded with and the SSIM-Y that CRF was chosen to reach: NULL for videos published before, whose
            // stored items stay right since they have none to show.
            try db.execute(
                sql: """
                    ALTER TABLE renditions ADD COLUMN video_codec TEXT;
                    ALTER TABLE renditions ADD COLUMN crf INTEGER;
                    ALTER TABLE renditions ADD COLUMN target_ssim_y REAL;
                    """)
        }
        migrator.registerMigration("v11: fractional CRFs") { db in
            // Content-aware rates choose x264's and x265's CRF in tenths (22.4): the column becomes REAL. SQLite
            // changes a column's type only by copying it; the copy clears the stored items of videos that had a CRF,
            // which readers render again, the same.
            try db.execute(
                sql: """
                    ALTER TABLE renditions ADD COLUMN crf_fractional REAL;
                    UPDATE renditions SET crf_fractional = crf WHERE crf IS NOT NULL;
                    ALTER TABLE renditions DROP COLUMN crf;
                    ALTER TABLE renditions RENAME COLUMN crf_fractional TO crf;
                    """)
        }
        migrator.registerMigration("v12: feed records, not rendered items") { db in
            // The catalog keeps facts, not the HTTP API: `item_json` held finished JSON with `/media/` URLs, so a new
            // media base or API field meant rewriting every row. `item_record` holds the same facts the columns do
            // (FeedVideoRecord), for a page to read in one column; the feed server renders items from it. The
            // triggers move to the new column, and every video's record is written from its columns now.
            try db.execute(
                sql: """
                    DROP TRIGGER videos_edit_clears_item;
                    DROP TRIGGER renditions_insert_clears_item;
                    DROP TRIGGER renditions_update_clears_item;
                    DROP TRIGGER renditions_delete_clears_item;
                    ALTER TABLE videos DROP COLUMN item_json;
                    ALTER TABLE videos ADD COLUMN item_record BLOB;
                    """ + Self.recordTriggersSQL)
            let ids = try String.fetchAll(db, sql: "SELECT id FROM videos ORDER BY id")
            let update = try db.makeStatement(sql: "UPDATE videos SET item_record = ? WHERE id = ?")
            for id in ids {
                guard
                    let video = try SQLiteCatalogEngine.video(
                        id: id, db, loudness: false, stage: false, post: false, visibility: false)
                else {
                    continue
                }
                try update.execute(arguments: [Data(FeedVideoRecord.encode(video)), id])
            }
        }
        migrator.registerMigration("v13: viewer events and video figures") { db in
            // What players report (POST /v1/events), kept for --events-retention, and each video's figures from the
            // last roll-up. AUTOINCREMENT: an id is never used twice, so the roll-up's order survives deletions.
            try db.execute(
                sql: """
                    CREATE TABLE viewer_events (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        received_at INTEGER NOT NULL,
                        session TEXT NOT NULL,
                        video TEXT,
                        type TEXT NOT NULL,
                        rendition TEXT,
                        ms INTEGER,
                        position_s REAL,
                        watched_s REAL,
                        completed INTEGER,
                        bytes INTEGER,
                        message TEXT
                    );
                    CREATE INDEX viewer_events_received ON viewer_events (received_at);
                    CREATE TABLE video_stats (
                        video TEXT PRIMARY KEY,
                        rolled_at INTEGER NOT NULL,
                        stats TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v14: engaging feed rankings") { db in
            // Each ranking whole, as a JSON array of ids: it is only ever read whole. AUTOINCREMENT: a cursor's
            // ranking number never names a different ranking later.
            try db.execute(
                sql: """
                    CREATE TABLE feed_rankings (
                        ranking INTEGER PRIMARY KEY AUTOINCREMENT,
                        made_at INTEGER NOT NULL,
                        videos TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v15: loudness") { db in
            // Each video's loudness (issue 61: the source's, the gain, the target) as JSON (LoudnessColumn): NULL for
            // videos without audio and those published before, whose records stay right since they have none to
            // show. The edit trigger now watches it too.
            try db.execute(
                sql: """
                    ALTER TABLE videos ADD COLUMN loudness TEXT;
                    DROP TRIGGER videos_edit_clears_record;
                    """ + Self.loudnessRecordTriggerSQL)
        }
        migrator.registerMigration("v16: upload quotas") { db in
            // Per token (issue 62): how many unfinished uploads it may hold, their declared bytes together, and how
            // many it may start an hour; NULL is the server's default (reel serve --upload-...). The hour window
            // opens with the first upload after the last window closed and counts the uploads started in it. The
            // index finds a token's unfinished uploads, which each creation counts.
            try db.execute(
                sql: """
                    ALTER TABLE upload_tokens ADD COLUMN max_concurrent_uploads INTEGER;
                    ALTER TABLE upload_tokens ADD COLUMN max_bytes_in_flight INTEGER;
                    ALTER TABLE upload_tokens ADD COLUMN max_uploads_per_hour INTEGER;
                    ALTER TABLE upload_tokens ADD COLUMN hour_started_at INTEGER;
                    ALTER TABLE upload_tokens ADD COLUMN hour_uploads INTEGER NOT NULL DEFAULT 0;
                    CREATE INDEX uploads_open_by_token ON uploads (token_id) WHERE finished_at IS NULL AND job_id IS NULL;
                    """)
        }
        migrator.registerMigration("v17: playable posts") { db in
            // Issue 64: a post enters the feed `playable`, with a provisional rendition, before its ladder is
            // `published`. Every row before this was published whole. Both stages are in the feed (status stays
            // 'published'), so the feed's index and queries are unchanged.
            try db.execute(
                sql: """
                    ALTER TABLE videos ADD COLUMN stage TEXT NOT NULL DEFAULT 'published'
                        CHECK (stage IN ('playable', 'published'));
                    """)
        }
        migrator.registerMigration("v18: captions and creators") { db in
            // Issue 65: what the upload said about its post (PostFacts) travels from the upload's row to its job's
            // as JSON, and is stored on the video as columns. NULL before, and for posts without them; records of
            // videos without them stay as they were, so nothing is rewritten. The edit trigger watches them too.
            try db.execute(
                sql: """
                    ALTER TABLE uploads ADD COLUMN post TEXT;
                    ALTER TABLE jobs ADD COLUMN post TEXT;
                    ALTER TABLE videos ADD COLUMN caption TEXT;
                    ALTER TABLE videos ADD COLUMN title TEXT;
                    ALTER TABLE videos ADD COLUMN creator TEXT;
                    DROP TRIGGER videos_edit_clears_record;
                    """ + Self.postRecordTriggerSQL)
        }
        migrator.registerMigration("v19: deleted posts and admin tokens") { db in
            // Issue 65: a deleted post leaves a tombstone (id, time, reason; never its content) until its files are
            // gone and the operator's retention has passed, so nothing re-queues what was deleted; the index finds
            // the ones whose files a restart must still remove. An admin token may delete any post.
            try db.execute(
                sql: """
                    CREATE TABLE tombstones (
                        id TEXT PRIMARY KEY NOT NULL,
                        deleted_at INTEGER NOT NULL,
                        reason TEXT NOT NULL,
                        media_removed_at INTEGER
                    );
                    CREATE INDEX tombstones_awaiting_media ON tombstones (deleted_at) WHERE media_removed_at IS NULL;
                    ALTER TABLE upload_tokens ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        migrator.registerMigration("v20: visibility") { db in
            // Issue 65: public posts are in the feeds; unlisted ones play by link; private ones only through signed
            // URLs, which stop working once the post's access epoch is raised. The feed's index holds public posts
            // only, so a page reads as before. Every row before this was public.
            try db.execute(
                sql: """
                    ALTER TABLE videos ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public'
                        CHECK (visibility IN ('public', 'unlisted', 'private'));
                    ALTER TABLE videos ADD COLUMN access_epoch INTEGER NOT NULL DEFAULT 0;
                    DROP INDEX videos_feed;
                    CREATE INDEX videos_feed ON videos (published_at DESC, id DESC)
                        WHERE status = 'published' AND visibility = 'public';
                    DROP TRIGGER videos_edit_clears_record;
                    """ + Self.videoRecordTriggerSQL)
        }
        migrator.registerMigration("v21: webhooks") { db in
            // Issue 65: the endpoints an operator registered, and the outbox: one row per event and endpoint,
            // written in the transaction of the change it reports, leased by a dispatcher (its next attempt is the
            // lease's end until it settles), settled when delivered or abandoned. The index finds what is owed.
            try db.execute(
                sql: """
                    CREATE TABLE webhook_endpoints (
                        id TEXT PRIMARY KEY NOT NULL,
                        url TEXT NOT NULL,
                        events TEXT NOT NULL,
                        secret TEXT NOT NULL,
                        allow_private INTEGER NOT NULL,
                        created_at INTEGER NOT NULL
                    );
                    CREATE TABLE webhook_deliveries (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        event_id TEXT NOT NULL,
                        endpoint_id TEXT NOT NULL,
                        type TEXT NOT NULL,
                        body TEXT NOT NULL,
                        created_at INTEGER NOT NULL,
                        attempts INTEGER NOT NULL,
                        next_attempt_at INTEGER NOT NULL,
                        lease_owner TEXT,
                        last_attempt_at INTEGER,
                        last_error TEXT,
                        delivered_at INTEGER,
                        abandoned_at INTEGER
                    );
                    CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
                        WHERE delivered_at IS NULL AND abandoned_at IS NULL;
                    CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id);
                    """)
        }
        migrator.registerMigration("v22: webhook secret rotation") { db in
            // After `reel webhook rotate`, the replaced secret signs deliveries too until its time is up.
            try db.execute(
                sql: """
                    ALTER TABLE webhook_endpoints ADD COLUMN previous_secret TEXT;
                    ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_until INTEGER;
                    """)
        }
        return migrator
    }

    /// v15's record trigger on `videos`, as it made it (a migration's SQL never changes).
    static let loudnessRecordTriggerSQL = """
        CREATE TRIGGER videos_edit_clears_record
            AFTER UPDATE OF id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path,
                            storyboard_vtt_path, storyboard_image_path, storyboard_interval_s, storyboard_tile_width,
                            storyboard_tile_height, storyboard_columns, storyboard_count, loudness
            ON videos WHEN NEW.item_record IS NOT NULL
            BEGIN UPDATE videos SET item_record = NULL WHERE id = NEW.id; END;
        """

    /// v18's record trigger on `videos`, as it made it.
    static let postRecordTriggerSQL = """
        CREATE TRIGGER videos_edit_clears_record
            AFTER UPDATE OF id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path,
                            storyboard_vtt_path, storyboard_image_path, storyboard_interval_s, storyboard_tile_width,
                            storyboard_tile_height, storyboard_columns, storyboard_count, loudness, stage, caption,
                            title, creator
            ON videos WHEN NEW.item_record IS NOT NULL
            BEGIN UPDATE videos SET item_record = NULL WHERE id = NEW.id; END;
        """

    /// Since v20: the record trigger on `videos`, watching every column the record holds.
    static let videoRecordTriggerSQL = """
        CREATE TRIGGER videos_edit_clears_record
            AFTER UPDATE OF id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path,
                            storyboard_vtt_path, storyboard_image_path, storyboard_interval_s, storyboard_tile_width,
                            storyboard_tile_height, storyboard_columns, storyboard_count, loudness, stage, caption,
                            title, creator, visibility, access_epoch
            ON videos WHEN NEW.item_record IS NOT NULL
            BEGIN UPDATE videos SET item_record = NULL WHERE id = NEW.id; END;
        """

    /// The triggers that clear a video's stored record when an edit outside Reel changes what it holds; readers
    /// then encode that row again from its columns. The engine itself writes the record after the renditions.
    static let recordTriggersSQL = """
        CREATE TRIGGER videos_edit_clears_record
            AFTER UPDATE OF id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path,
                            storyboard_vtt_path, storyboard_image_path, storyboard_interval_s, storyboard_tile_width,
                            storyboard_tile_height, storyboard_columns, storyboard_count
            ON videos WHEN NEW.item_record IS NOT NULL
            BEGIN UPDATE videos SET item_record = NULL WHERE id = NEW.id; END;
        CREATE TRIGGER renditions_insert_clears_record AFTER INSERT ON renditions
            BEGIN UPDATE videos SET item_record = NULL WHERE id = NEW.video_id AND item_record IS NOT NULL; END;
        CREATE TRIGGER renditions_update_clears_record AFTER UPDATE ON renditions
            BEGIN UPDATE videos SET item_record = NULL WHERE id IN (OLD.video_id, NEW.video_id) AND item_record IS NOT NULL; END;
        CREATE TRIGGER renditions_delete_clears_record AFTER DELETE ON renditions
            BEGIN UPDATE videos SET item_record = NULL WHERE id = OLD.video_id AND item_record IS NOT NULL; END;
        """
}
