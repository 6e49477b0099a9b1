internal import Catalog
package import Logging
internal import NIOCore
package import PostgresNIO

/// The catalog's schema on PostgreSQL: the same tables, columns, constraints and triggers as the SQLite catalog
/// (SQLiteCatalogDatabase's migrations v1–v8), with versioned migrations of its own. PostgreSQL catalogs start at this
/// schema, so its first version is the SQLite catalog as it stands, not its history; later changes are appended to
/// both engines. `PostgresSchemaTests` checks the two engines' tables and columns stay the same.
package enum PostgresSchema {
    package struct Migration: Sendable {
        package let version: Int
        package let name: String
        /// One statement each: PostgresNIO's extended protocol runs one statement per query.
        package let statements: [String]
        /// Rows written in Swift after the statements, in the same transaction (what SQL alone cannot compute).
        package let fill: (@Sendable (PostgresConnection, Logger) async throws -> Void)?

        package init(
            version: Int, name: String, statements: [String],
            fill: (@Sendable (PostgresConnection, Logger) async throws -> Void)? = nil
        ) {
            self.version = version
            self.name = name
            self.statements = statements
            self.fill = fill
        }
    }

    package static let migrations: [Migration] = [
        catalog, jobLeases, claimableJobs, renditionCodecs, fractionalCRFs, feedRecords, viewerEvents, feedRankings,
        loudness, uploadQuotas, playablePosts, postFacts, deletedPosts, visibility, webhooks, webhookRotation,
    ]

    static let catalog = Migration(
        version: 1, name: "catalog (the SQLite catalog's v7)",
        statements: [
            """
            CREATE TABLE videos (
                id text PRIMARY KEY,
                status text NOT NULL CHECK (status IN ('processing', 'published', 'rejected', 'failed')),
                created_at bigint NOT NULL,
                published_at bigint,
                duration_ms bigint NOT NULL,
                width integer NOT NULL,
                height integer NOT NULL,
                content_hash text NOT NULL UNIQUE,
                source text NOT NULL DEFAULT '{}',
                master_path text,
                poster_jpeg_path text,
                poster_webp_path text,
                item_json text,
                storyboard_vtt_path text,
                storyboard_image_path text,
                storyboard_interval_s integer,
                storyboard_tile_width integer,
                storyboard_tile_height integer,
                storyboard_columns integer,
                storyboard_count integer
            )
            """,
            // The feed's only query: published videos, newest first, keyset on (published_at, id).
            "CREATE INDEX videos_feed ON videos (published_at DESC, id DESC) WHERE status = 'published'",
            """
            CREATE TABLE renditions (
                video_id text NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
                rung text NOT NULL,
                width integer NOT NULL,
                height integer NOT NULL,
                bandwidth bigint NOT NULL,
                average_bandwidth bigint NOT NULL,
                codecs text NOT NULL,
                segments integer NOT NULL,
                init_bytes bigint,
                segment_duration_ms integer,
                first_segments text,
                PRIMARY KEY (video_id, rung)
            )
            """,
            """
            CREATE TABLE images (
                id text PRIMARY KEY,
                created_at bigint NOT NULL,
                width integer NOT NULL,
                height integer NOT NULL,
                bytes bigint NOT NULL,
                path text NOT NULL,
                content_hash text NOT NULL UNIQUE
            )
            """,
            """
            CREATE TABLE jobs (
                id text PRIMARY KEY,
                kind text NOT NULL CHECK (kind IN ('unknown', 'video', 'image')),
                source_name bytea NOT NULL,
                source_bytes bigint NOT NULL DEFAULT 0,
                state text NOT NULL CHECK (state IN ('queued', 'processing', 'published', 'rejected', 'failed')),
                owner text,
                attempts integer NOT NULL DEFAULT 0,
                reason text,
                last_error text,
                progress double precision NOT NULL DEFAULT 0,
                content_hash text,
                created_at bigint NOT NULL,
                updated_at bigint NOT NULL,
                started_at bigint,
                finished_at bigint,
                not_before bigint NOT NULL DEFAULT 0,
                media_id text
            )
            """,
            "CREATE INDEX jobs_queue ON jobs (state, not_before, created_at)",
            "CREATE INDEX jobs_owner ON jobs (owner) WHERE owner IS NOT NULL",
            // One row whose value changes in every transaction that changes the feed; random start, as on SQLite.
            "CREATE TABLE catalog_generation (id integer PRIMARY KEY CHECK (id = 1), value bigint NOT NULL)",
            "INSERT INTO catalog_generation (id, value) VALUES (1, floor(random() * 1000000000000)::bigint)",
            """
            CREATE FUNCTION bump_catalog_generation() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE catalog_generation SET value = value + 1 WHERE id = 1;
                RETURN NULL;
            END $$
            """,
            // Statement-level: once per edit, however many rows it touched (SQLite's row triggers bump per row).
            "CREATE TRIGGER videos_changes_bump_generation AFTER UPDATE OR DELETE ON videos FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_generation()",
            "CREATE TRIGGER renditions_changes_bump_generation AFTER UPDATE OR DELETE ON renditions FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_generation()",
            """
            CREATE TABLE upload_tokens (
                id text PRIMARY KEY,
                name text NOT NULL UNIQUE,
                hash text NOT NULL UNIQUE,
                rate_limit double precision,
                created_at bigint NOT NULL,
                revoked_at bigint
            )
            """,
            """
            CREATE TABLE uploads (
                id text PRIMARY KEY,
                token_id text NOT NULL REFERENCES upload_tokens(id),
                length bigint NOT NULL,
                received bigint NOT NULL DEFAULT 0,
                metadata text NOT NULL,
                filename bytea NOT NULL,
                created_at bigint NOT NULL,
                updated_at bigint NOT NULL,
                expires_at bigint NOT NULL,
                job_id text,
                finished_at bigint
            )
            """,
            "CREATE INDEX uploads_expiry ON uploads (expires_at) WHERE finished_at IS NULL",
            // A stored feed item is cleared when an edit outside Reel changes what it shows; readers then render it.
            """
            CREATE FUNCTION clear_edited_video_item() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE videos SET item_json = NULL WHERE id = NEW.id;
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER videos_edit_clears_item
                AFTER UPDATE OF id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path,
                                storyboard_vtt_path, storyboard_image_path, storyboard_interval_s, storyboard_tile_width,
                                storyboard_tile_height, storyboard_columns, storyboard_count
                ON videos FOR EACH ROW WHEN (NEW.item_json IS NOT NULL)
                EXECUTE FUNCTION clear_edited_video_item()
            """,
            """
            CREATE FUNCTION clear_rendition_video_item() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP IN ('INSERT', 'UPDATE') THEN
                    UPDATE videos SET item_json = NULL WHERE id = NEW.video_id AND item_json IS NOT NULL;
                END IF;
                IF TG_OP IN ('UPDATE', 'DELETE') THEN
                    UPDATE videos SET item_json = NULL WHERE id = OLD.video_id AND item_json IS NOT NULL;
                END IF;
                RETURN NULL;
            END $$
            """,
            "CREATE TRIGGER renditions_edit_clears_item AFTER INSERT OR UPDATE OR DELETE ON renditions FOR EACH ROW EXECUTE FUNCTION clear_rendition_video_item()",
        ])

    /// The SQLite catalog's v8 (job leases), plus what only a server has: notifications. A job that becomes claimable
    /// wakes waiting workers (`reel_jobs`), and each new catalog generation is announced (`reel_generation`, the value
    /// as payload). `NOTIFY` is delivered at commit, and one transaction's equal notifications arrive once.
    /// The generation now moves once per transaction however many statements changed the feed: a row whose `xmin` is
    /// the current transaction was already bumped by it. Video ids compare bytewise (`COLLATE "C"`), as SQLite's
    /// BINARY does, so the feed's keyset order is the same on both engines whatever the database's locale.
    static let jobLeases = Migration(
        version: 2, name: "job leases and notifications (the SQLite catalog's v8)",
        statements: [
            "ALTER TABLE jobs ADD COLUMN epoch bigint NOT NULL DEFAULT 0",
            "ALTER TABLE jobs ADD COLUMN lease_expires_at bigint",
            """
            CREATE FUNCTION notify_claimable_job() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('reel_jobs', '');
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER jobs_claimable_notifies AFTER INSERT OR UPDATE ON jobs
                FOR EACH ROW WHEN (NEW.state = 'queued' AND NEW.owner IS NULL)
                EXECUTE FUNCTION notify_claimable_job()
            """,
            """
            CREATE FUNCTION notify_catalog_generation() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('reel_generation', NEW.value::text);
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER catalog_generation_notifies AFTER UPDATE ON catalog_generation
                FOR EACH ROW EXECUTE FUNCTION notify_catalog_generation()
            """,
            """
            CREATE OR REPLACE FUNCTION bump_catalog_generation() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE catalog_generation SET value = value + 1 WHERE id = 1 AND xmin <> pg_current_xact_id()::xid;
                RETURN NULL;
            END $$
            """,
            // The edit trigger names `id`, so it goes while the column changes, and comes back as v1 made it.
            "DROP TRIGGER videos_edit_clears_item ON videos",
            "ALTER TABLE videos ALTER COLUMN id TYPE text COLLATE \"C\"",
            "ALTER TABLE renditions ALTER COLUMN video_id TYPE text COLLATE \"C\"",
            """
            CREATE TRIGGER videos_edit_clears_item
                AFTER UPDATE OF id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path,
                                storyboard_vtt_path, storyboard_image_path, storyboard_interval_s, storyboard_tile_width,
                                storyboard_tile_height, storyboard_columns, storyboard_count
                ON videos FOR EACH ROW WHEN (NEW.item_json IS NOT NULL)
                EXECUTE FUNCTION clear_edited_video_item()
            """,
        ])

    /// The SQLite catalog's v9. The claim reads only queued, unheld jobs in due order: a partial index holds exactly
    /// those, so a claim is one short index descent whatever the table's size or statistics. (With only `jobs_queue`, a
    /// queue filled faster than autovacuum analyzes it was planned as a scan: 10,000 fresh jobs drained at about 1,000
    /// claims/s instead of 8,000.)
    static let claimableJobs = Migration(
        version: 3, name: "claimable jobs index (the SQLite catalog's v9)",
        statements: [
            "CREATE INDEX jobs_claimable ON jobs (not_before, created_at) WHERE state = 'queued' AND owner IS NULL"
        ])

    /// The SQLite catalog's v10. Per rendition, its video codec, the CRF it was encoded with and the SSIM-Y that CRF
    /// was chosen to reach: NULL for videos published before, whose stored items stay right since they have none to
    /// show.
    static let renditionCodecs = Migration(
        version: 4, name: "rendition codecs and rates (the SQLite catalog's v10)",
        statements: [
            "ALTER TABLE renditions ADD COLUMN video_codec text",
            "ALTER TABLE renditions ADD COLUMN crf integer",
            "ALTER TABLE renditions ADD COLUMN target_ssim_y double precision",
        ])

    /// The SQLite catalog's v11. Content-aware rates choose x264's and x265's CRF in tenths (22.4).
    static let fractionalCRFs = Migration(
        version: 5, name: "fractional CRFs (the SQLite catalog's v11)",
        statements: [
            "ALTER TABLE renditions ALTER COLUMN crf TYPE double precision"
        ])

    /// The SQLite catalog's v12. The catalog keeps facts, not the HTTP API: `item_json` held finished JSON with
    /// `/media/` URLs, so a new media base or API field meant rewriting every row. `item_record` holds the facts the
    /// columns hold (FeedVideoRecord) for a page to read in one column; the feed server renders items from it.
    static let feedRecords = Migration(
        version: 6, name: "feed records, not rendered items (the SQLite catalog's v12)",
        statements: [
            "DROP TRIGGER videos_edit_clears_item ON videos",
            "DROP TRIGGER renditions_edit_clears_item ON renditions",
            "DROP FUNCTION clear_edited_video_item()",
            "DROP FUNCTION clear_rendition_video_item()",
            "ALTER TABLE videos DROP COLUMN item_json",
            "ALTER TABLE videos ADD COLUMN item_record bytea",
            """
            CREATE FUNCTION clear_edited_video_record() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE videos SET item_record = NULL WHERE id = NEW.id;
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER videos_edit_clears_record
                AFTER UPDATE OF id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path,
                                storyboard_vtt_path, storyboard_image_path, storyboard_interval_s, storyboard_tile_width,
                                storyboard_tile_height, storyboard_columns, storyboard_count
                ON videos FOR EACH ROW WHEN (NEW.item_record IS NOT NULL)
                EXECUTE FUNCTION clear_edited_video_record()
            """,
            """
            CREATE FUNCTION clear_rendition_video_record() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP IN ('INSERT', 'UPDATE') THEN
                    UPDATE videos SET item_record = NULL WHERE id = NEW.video_id AND item_record IS NOT NULL;
                END IF;
                IF TG_OP IN ('UPDATE', 'DELETE') THEN
                    UPDATE videos SET item_record = NULL WHERE id = OLD.video_id AND item_record IS NOT NULL;
                END IF;
                RETURN NULL;
            END $$
            """,
            "CREATE TRIGGER renditions_edit_clears_record AFTER INSERT OR UPDATE OR DELETE ON renditions FOR EACH ROW EXECUTE FUNCTION clear_rendition_video_record()",
        ],
        fill: { connection, logger in
            // Every video's record from its columns, in id order, as SQLite's v12 does.
            var ids: [String] = []
            for try await id in try await connection.query("SELECT id FROM videos ORDER BY id", logger: logger).decode(
                String.self)
            {
                ids.append(id)
            }
            for id in ids {
                guard
                    let video = try await PostgresCatalogEngine.video(
                        id: id, connection, logger: logger, loudness: false, stage: false, post: false,
                        visibility: false)
                else {
                    continue
                }
                try await connection.query(
                    "UPDATE videos SET item_record = \(ByteBuffer(bytes: FeedVideoRecord.encode(video))) WHERE id = \(id)",
                    logger: logger)
            }
        })

    /// The SQLite catalog's v13: what players report (POST /v1/events), kept for --events-retention, and each
    /// video's figures from the last roll-up.
    static let viewerEvents = Migration(
        version: 7, name: "viewer events and video figures (the SQLite catalog's v13)",
        statements: [
            """
            CREATE TABLE viewer_events (
                id bigserial PRIMARY KEY,
                received_at bigint NOT NULL,
                session text NOT NULL,
                video text COLLATE "C",
                type text NOT NULL,
                rendition text,
                ms bigint,
                position_s double precision,
                watched_s double precision,
                completed integer,
                bytes bigint,
                message text
            )
            """,
            "CREATE INDEX viewer_events_received ON viewer_events (received_at)",
            """
            CREATE TABLE video_stats (
                video text COLLATE "C" PRIMARY KEY,
                rolled_at bigint NOT NULL,
                stats text NOT NULL
            )
            """,
        ])

    /// The SQLite catalog's v14: the engaging feed's rankings, each whole as a JSON array of ids, shared by every
    /// feed server on the catalog.
    static let feedRankings = Migration(
        version: 8, name: "engaging feed rankings (the SQLite catalog's v14)",
        statements: [
            """
            CREATE TABLE feed_rankings (
                ranking bigserial PRIMARY KEY,
                made_at bigint NOT NULL,
                videos text NOT NULL
            )
            """
        ])

    /// The SQLite catalog's v15: each video's loudness (issue 61) as JSON (`LoudnessColumn`), NULL for videos without
    /// audio and those published before; the edit trigger watches it too.
    static let loudness = Migration(
        version: 9, name: "loudness (the SQLite catalog's v15)",
        statements: [
            "ALTER TABLE videos ADD COLUMN loudness text",
            "DROP TRIGGER videos_edit_clears_record ON videos",
            """
            CREATE TRIGGER videos_edit_clears_record
                AFTER UPDATE OF id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path,
                                storyboard_vtt_path, storyboard_image_path, storyboard_interval_s, storyboard_tile_width,
                                storyboard_tile_height, storyboard_columns, storyboard_count, loudness
                ON videos FOR EACH ROW WHEN (NEW.item_record IS NOT NULL)
                EXECUTE FUNCTION clear_edited_video_record()
            """,
        ])

    /// The SQLite catalog's v16: each token's upload quota (NULL is the server's default) and its hour window, and the
    /// index a creation counts a token's unfinished uploads with.
    static let uploadQuotas = Migration(
        version: 10, name: "upload quotas (the SQLite catalog's v16)",
        statements: [
            "ALTER TABLE upload_tokens ADD COLUMN max_concurrent_uploads bigint",
            "ALTER TABLE upload_tokens ADD COLUMN max_bytes_in_flight bigint",
            "ALTER TABLE upload_tokens ADD COLUMN max_uploads_per_hour bigint",
            "ALTER TABLE upload_tokens ADD COLUMN hour_started_at bigint",
            "ALTER TABLE upload_tokens ADD COLUMN hour_uploads bigint NOT NULL DEFAULT 0",
            "CREATE INDEX uploads_open_by_token ON uploads (token_id) WHERE finished_at IS NULL AND job_id IS NULL",
        ])

    /// The SQLite catalog's v17 (issue 64): a post enters the feed `playable`, with a provisional rendition, before its
    /// ladder is `published`; every row before was published whole. Both stages are in the feed.
    static let playablePosts = Migration(
        version: 11, name: "playable posts (the SQLite catalog's v17)",
        statements: [
            "ALTER TABLE videos ADD COLUMN stage text NOT NULL DEFAULT 'published' CHECK (stage IN ('playable', 'published'))"
        ])

    /// The SQLite catalog's v18 (issue 65): what an upload said about its post travels from the upload's row to its
    /// job's as JSON (`PostFacts.column`), and is stored on the video as columns; the edit trigger watches them too.
    static let postFacts = Migration(
        version: 12, name: "captions and creators (the SQLite catalog's v18)",
        statements: [
            "ALTER TABLE uploads ADD COLUMN post text",
            "ALTER TABLE jobs ADD COLUMN post text",
            "ALTER TABLE videos ADD COLUMN caption text",
            "ALTER TABLE videos ADD COLUMN title text",
            "ALTER TABLE videos ADD COLUMN creator text",
            "DROP TRIGGER videos_edit_clears_record ON videos",
            """
            CREATE TRIGGER videos_edit_clears_record
                AFTER UPDATE OF id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path,
                                storyboard_vtt_path, storyboard_image_path, storyboard_interval_s, storyboard_tile_width,
                                storyboard_tile_height, storyboard_columns, storyboard_count, loudness, stage, caption,
                                title, creator
                ON videos FOR EACH ROW WHEN (NEW.item_record IS NOT NULL)
                EXECUTE FUNCTION clear_edited_video_record()
            """,
        ])

    /// The SQLite catalog's v19 (issue 65): a deleted post's tombstone (id, time, reason), kept until its files are
    /// gone and the retention has passed, and the index of those whose files a restart must still remove; admin tokens.
    static let deletedPosts = Migration(
        version: 13, name: "deleted posts and admin tokens (the SQLite catalog's v19)",
        statements: [
            """
            CREATE TABLE tombstones (
                id text PRIMARY KEY,
                deleted_at bigint NOT NULL,
                reason text NOT NULL,
                media_removed_at bigint
            )
            """,
            "CREATE INDEX tombstones_awaiting_media ON tombstones (deleted_at) WHERE media_removed_at IS NULL",
            "ALTER TABLE upload_tokens ADD COLUMN admin bigint NOT NULL DEFAULT 0",
        ])

    /// The SQLite catalog's v20 (issue 65): public posts are in the feeds, unlisted ones play by link, private ones
    /// only through signed URLs that name the post's access epoch. The feed's index holds public posts only.
    static let visibility = Migration(
        version: 14, name: "visibility (the SQLite catalog's v20)",
        statements: [
            """
            ALTER TABLE videos ADD COLUMN visibility text NOT NULL DEFAULT 'public'
                CHECK (visibility IN ('public', 'unlisted', 'private'))
            """,
            "ALTER TABLE videos ADD COLUMN access_epoch bigint NOT NULL DEFAULT 0",
            "DROP INDEX videos_feed",
            """
            CREATE INDEX videos_feed ON videos (published_at DESC, id DESC)
                WHERE status = 'published' AND visibility = 'public'
            """,
            "DROP TRIGGER videos_edit_clears_record ON videos",
            """
            CREATE TRIGGER videos_edit_clears_record
                AFTER UPDATE OF id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path,
                                storyboard_vtt_path, storyboard_image_path, storyboard_interval_s, storyboard_tile_width,
                                storyboard_tile_height, storyboard_columns, storyboard_count, loudness, stage, caption,
                                title, creator, visibility, access_epoch
                ON videos FOR EACH ROW WHEN (NEW.item_record IS NOT NULL)
                EXECUTE FUNCTION clear_edited_video_record()
            """,
        ])

    /// The SQLite catalog's v21 (issue 65): webhook endpoints and the outbox of their deliveries.
    static let webhooks = Migration(
        version: 15, name: "webhooks (the SQLite catalog's v21)",
        statements: [
            """
            CREATE TABLE webhook_endpoints (
                id text PRIMARY KEY,
                url text NOT NULL,
                events text NOT NULL,
                secret text NOT NULL,
                allow_private bigint NOT NULL,
                created_at bigint NOT NULL
            )
            """,
            """
            CREATE TABLE webhook_deliveries (
                id bigserial PRIMARY KEY,
                event_id text NOT NULL,
                endpoint_id text NOT NULL,
                type text NOT NULL,
                body text NOT NULL,
                created_at bigint NOT NULL,
                attempts bigint NOT NULL,
                next_attempt_at bigint NOT NULL,
                lease_owner text,
                last_attempt_at bigint,
                last_error text,
                delivered_at bigint,
                abandoned_at bigint
            )
            """,
            """
            CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
                WHERE delivered_at IS NULL AND abandoned_at IS NULL
            """,
            "CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id)",
        ])

    /// The SQLite catalog's v22 (issue 65): the secret a rotation replaced, and until when it still signs.
    static let webhookRotation = Migration(
        version: 16, name: "webhook secret rotation (the SQLite catalog's v22)",
        statements: [
            "ALTER TABLE webhook_endpoints ADD COLUMN previous_secret text",
            "ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_until bigint",
        ])
}
