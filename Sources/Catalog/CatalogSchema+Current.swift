extension CatalogSchema {
    /// The schema both engines' migrations make today. A migration that adds, drops or retypes a column, or adds,
    /// drops or changes a named index, changes this too, on both engines, or `CatalogSchemaConformanceTests` fails.
    package static let current = CatalogSchema(tables: [
        Table(
            "upload_tokens", primaryKey: ["id"],
            columns: [
                Column("id", .text, notNull: true), Column("name", .text, notNull: true),
                Column("hash", .text, notNull: true), Column("rate_limit", .real),
                Column("created_at", .integer, notNull: true), Column("revoked_at", .integer),
                Column("max_concurrent_uploads", .integer), Column("max_bytes_in_flight", .integer),
                Column("max_uploads_per_hour", .integer), Column("hour_started_at", .integer),
                Column("hour_uploads", .integer, notNull: true), Column("admin", .integer, notNull: true),
            ]),
        Table(
            "uploads", primaryKey: ["id"],
            columns: [
                Column("id", .text, notNull: true), Column("token_id", .text, notNull: true),
                Column("length", .integer, notNull: true), Column("received", .integer, notNull: true),
                Column("metadata", .text, notNull: true), Column("filename", .blob, notNull: true),
                Column("created_at", .integer, notNull: true), Column("updated_at", .integer, notNull: true),
                Column("expires_at", .integer, notNull: true), Column("job_id", .text),
                Column("finished_at", .integer), Column("post", .text),
            ],
            indexes: [
                Index("uploads_expiry", on: ["expires_at"], partial: true),
                Index("uploads_open_by_token", on: ["token_id"], partial: true),
            ]),
        Table(
            "videos", primaryKey: ["id"],
            columns: [
                Column("id", .text, notNull: true), Column("status", .text, notNull: true),
                Column("created_at", .integer, notNull: true), Column("published_at", .integer),
                Column("duration_ms", .integer, notNull: true), Column("width", .integer, notNull: true),
                Column("height", .integer, notNull: true), Column("content_hash", .text, notNull: true),
                Column("source", .text, notNull: true), Column("master_path", .text),
                Column("poster_jpeg_path", .text), Column("poster_webp_path", .text),
                Column("storyboard_vtt_path", .text), Column("storyboard_image_path", .text),
                Column("storyboard_interval_s", .integer), Column("storyboard_tile_width", .integer),
                Column("storyboard_tile_height", .integer), Column("storyboard_columns", .integer),
                Column("storyboard_count", .integer), Column("item_record", .blob), Column("loudness", .text),
                Column("stage", .text, notNull: true), Column("caption", .text), Column("title", .text),
                Column("creator", .text), Column("visibility", .text, notNull: true),
                Column("access_epoch", .integer, notNull: true),
            ],
            indexes: [Index("videos_feed", on: ["published_at DESC", "id DESC"], partial: true)]),
        Table(
            "renditions", primaryKey: ["video_id", "rung"],
            columns: [
                Column("video_id", .text, notNull: true), Column("rung", .text, notNull: true),
                Column("width", .integer, notNull: true), Column("height", .integer, notNull: true),
                Column("bandwidth", .integer, notNull: true), Column("average_bandwidth", .integer, notNull: true),
                Column("codecs", .text, notNull: true), Column("segments", .integer, notNull: true),
                Column("init_bytes", .integer), Column("segment_duration_ms", .integer),
                Column("first_segments", .text), Column("video_codec", .text), Column("crf", .real),
                Column("target_ssim_y", .real),
            ]),
        Table(
            "images", primaryKey: ["id"],
            columns: [
                Column("id", .text, notNull: true), Column("created_at", .integer, notNull: true),
                Column("width", .integer, notNull: true), Column("height", .integer, notNull: true),
                Column("bytes", .integer, notNull: true), Column("path", .text, notNull: true),
                Column("content_hash", .text, notNull: true),
            ]),
        Table(
            "jobs", primaryKey: ["id"],
            columns: [
                Column("id", .text, notNull: true), Column("kind", .text, notNull: true),
                Column("source_name", .blob, notNull: true), Column("source_bytes", .integer, notNull: true),
                Column("state", .text, notNull: true), Column("owner", .text),
                Column("attempts", .integer, notNull: true), Column("reason", .text), Column("last_error", .text),
                Column("progress", .real, notNull: true), Column("content_hash", .text),
                Column("created_at", .integer, notNull: true), Column("updated_at", .integer, notNull: true),
                Column("started_at", .integer), Column("finished_at", .integer),
                Column("not_before", .integer, notNull: true), Column("media_id", .text),
                Column("epoch", .integer, notNull: true), Column("lease_expires_at", .integer),
                Column("post", .text),
            ],
            indexes: [
                Index("jobs_queue", on: ["state", "not_before", "created_at"]),
                Index("jobs_owner", on: ["owner"], partial: true),
                Index("jobs_claimable", on: ["not_before", "created_at"], partial: true),
            ]),
        Table(
            "viewer_events", primaryKey: ["id"],
            columns: [
                Column("id", .integer, notNull: true), Column("received_at", .integer, notNull: true),
                Column("session", .text, notNull: true), Column("video", .text),
                Column("type", .text, notNull: true), Column("rendition", .text), Column("ms", .integer),
                Column("position_s", .real), Column("watched_s", .real), Column("completed", .integer),
                Column("bytes", .integer), Column("message", .text),
            ],
            indexes: [Index("viewer_events_received", on: ["received_at"])]),
        Table(
            "video_stats", primaryKey: ["video"],
            columns: [
                Column("video", .text, notNull: true), Column("rolled_at", .integer, notNull: true),
                Column("stats", .text, notNull: true),
            ]),
        Table(
            "feed_rankings", primaryKey: ["ranking"],
            columns: [
                Column("ranking", .integer, notNull: true), Column("made_at", .integer, notNull: true),
                Column("videos", .text, notNull: true),
            ]),
        Table(
            "catalog_generation", primaryKey: ["id"],
            columns: [Column("id", .integer, notNull: true), Column("value", .integer, notNull: true)]),
        Table(
            "tombstones", primaryKey: ["id"],
            columns: [
                Column("id", .text, notNull: true), Column("deleted_at", .integer, notNull: true),
                Column("reason", .text, notNull: true), Column("media_removed_at", .integer),
            ],
            indexes: [Index("tombstones_awaiting_media", on: ["deleted_at"], partial: true)]),
        Table(
            "webhook_endpoints", primaryKey: ["id"],
            columns: [
                Column("id", .text, notNull: true), Column("url", .text, notNull: true),
                Column("events", .text, notNull: true), Column("secret", .text, notNull: true),
                Column("allow_private", .integer, notNull: true), Column("created_at", .integer, notNull: true),
                Column("previous_secret", .text), Column("previous_secret_until", .integer),
            ]),
        Table(
            "webhook_deliveries", primaryKey: ["id"],
            columns: [
                Column("id", .integer, notNull: true), Column("event_id", .text, notNull: true),
                Column("endpoint_id", .text, notNull: true), Column("type", .text, notNull: true),
                Column("body", .text, notNull: true), Column("created_at", .integer, notNull: true),
                Column("attempts", .integer, notNull: true), Column("next_attempt_at", .integer, notNull: true),
                Column("lease_owner", .text), Column("last_attempt_at", .integer), Column("last_error", .text),
                Column("delivered_at", .integer), Column("abandoned_at", .integer),
            ],
            indexes: [
                Index("webhook_deliveries_due", on: ["next_attempt_at"], partial: true),
                Index("webhook_deliveries_endpoint", on: ["endpoint_id"]),
            ]),
    ])
}
