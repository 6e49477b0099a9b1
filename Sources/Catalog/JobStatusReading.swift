/// A job's status by id: all the feed server needs of the queue, to answer a client polling its upload
/// (`/v1/jobs/{id}`). With a read replica it still reads the primary, so a new job is never "unknown".
package protocol JobStatusReading: Sendable {
    func job(id: String) async throws(CatalogError) -> FeedJob?
}
