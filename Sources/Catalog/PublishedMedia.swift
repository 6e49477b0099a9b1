/// What a content hash already stands for in the catalog: a video or an image, by id.
public struct PublishedMedia: Sendable, Equatable {
    public var kind: FeedJob.Kind
    public var id: String

    public init(kind: FeedJob.Kind, id: String) {
        self.kind = kind
        self.id = id
    }
}
