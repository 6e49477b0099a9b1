internal import Foundation
package import MediaModel

/// A video whose files are all in place in the library, ready to become visible in the feed.
package struct PublishedVideo: Sendable, Equatable {
    package var id: String
    package var createdAt: Int64
    /// Unix milliseconds.
    package var publishedAt: Int64
    package var durationMilliseconds: Int
    package var width: Int
    package var height: Int
    package var contentHash: String
    /// What admission learnt about the original (container, codecs, size), for operators; nil for seeded videos.
    package var source: MediaInfo?
    package var masterPath: String
    package var posterJPEGPath: String
    package var posterWebPPath: String
    package var renditions: [FeedVideo.Rendition]
    /// Library paths of the storyboard's files; nil when the video has none.
    package var storyboard: Storyboard?
    /// The source's loudness and what brought the audio to the target; nil when the video has no audio.
    package var loudness: AudioLoudness?
    /// `playable` for a provisional rendition published while the ladder is made.
    package var stage: VideoStage
    /// The caption, title, creator and visibility.
    package var post: PostFacts
    /// See `FeedVideo.accessEpoch`; a playable row's is kept when the ladder replaces it.
    package var accessEpoch: Int64 = 0

    package init(
        id: String, createdAt: Int64, publishedAt: Int64, durationMilliseconds: Int, width: Int, height: Int,
        contentHash: String, source: MediaInfo?, masterPath: String, posterJPEGPath: String, posterWebPPath: String,
        renditions: [FeedVideo.Rendition], storyboard: Storyboard? = nil, loudness: AudioLoudness? = nil,
        stage: VideoStage = .published, post: PostFacts = PostFacts()
    ) {
        self.id = id
        self.createdAt = createdAt
        self.publishedAt = publishedAt
        self.durationMilliseconds = durationMilliseconds
        self.width = width
        self.height = height
        self.contentHash = contentHash
        self.source = source
        self.masterPath = masterPath
        self.posterJPEGPath = posterJPEGPath
        self.posterWebPPath = posterWebPPath
        self.renditions = renditions
        self.storyboard = storyboard
        self.loudness = loudness
        self.stage = stage
        self.post = post
    }

    /// The feed's view of this row.
    package var feedVideo: FeedVideo {
        FeedVideo(
            id: id, publishedAt: publishedAt, durationMilliseconds: durationMilliseconds, width: width, height: height,
            masterPath: masterPath, posterJPEGPath: posterJPEGPath, posterWebPPath: posterWebPPath,
            renditions: renditions, storyboard: storyboard, loudness: loudness, stage: stage, post: post,
            accessEpoch: accessEpoch)
    }

    /// `source` as both engines store it: JSON with sorted keys, `{}` when there is none.
    package var sourceJSON: String {
        guard let source else { return "{}" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(source)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
