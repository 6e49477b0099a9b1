/// Where a post is on its way into the feed. Both are in the feed: a `playable` post plays a provisional rendition
/// (fewer rungs, made in a second) while its ladder is made; a `published` one has its whole ladder.
package enum VideoStage: String, Sendable, Codable, CaseIterable {
    case playable
    case published
}
