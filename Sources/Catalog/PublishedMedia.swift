/// What a content hash already stands for in the catalog: a video or an image, by id.
package struct PublishedMedia: Sendable, Equatable {
    package var kind: FeedJob.Kind
    package var id: String

    package init(kind: FeedJob.Kind, id: String) {
        self.kind = kind
        self.id = id
    }
}
