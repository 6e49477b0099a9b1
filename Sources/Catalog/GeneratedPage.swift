/// A page and the catalog generation it was read at, from one snapshot.
package struct GeneratedPage: Sendable {
    package var page: FeedPage
    package var generation: Int64

    package init(page: FeedPage, generation: Int64) {
        self.page = page
        self.generation = generation
    }
}
