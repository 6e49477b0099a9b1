package import MediaModel
package import Transcode

/// What a job process tells the worker while it is still running (`playable.json`, written whole): a provisional
/// rendition is in `playable/` and may be published at once, so the post plays long before its ladder is done.
/// Written once the master, each listed rendition's init segment and its first two segments are in place, and again
/// with `complete` when its playlists are final. The worker publishes what the files say, never more.
package struct PlayableOutcome: Codable, Sendable {
    /// How the provisional rendition was made.
    package enum Mode: String, Codable, Sendable {
        /// The upload's own packets copied into segments (it was already a rung): complete at once.
        case remux
        /// The lowest rung encoded ahead of the ladder; its playlist is `EVENT` until `complete`.
        case firstRung = "first_rung"
    }

    package var mode: Mode
    package var durationSeconds: Double
    /// The provisional master's renditions, with `BANDWIDTH`s measured from what was written (or conservative).
    package var renditions: [TranscodeSummary.Rendition]
    /// Inside `playable/`.
    package var posterJPEG: String
    package var posterWebP: String
    /// The playlists end with `#EXT-X-ENDLIST` and no segment will be added.
    package var complete: Bool
    /// What admission learnt of the upload, for the catalog row.
    package var info: MediaInfo?

    package init(
        mode: Mode, durationSeconds: Double, renditions: [TranscodeSummary.Rendition],
        posterJPEG: String = "poster.jpg", posterWebP: String = "poster.webp", complete: Bool, info: MediaInfo? = nil
    ) {
        self.mode = mode
        self.durationSeconds = durationSeconds
        self.renditions = renditions
        self.posterJPEG = posterJPEG
        self.posterWebP = posterWebP
        self.complete = complete
        self.info = info
    }
}
