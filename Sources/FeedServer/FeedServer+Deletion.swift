internal import Catalog
internal import Foundation
internal import Hummingbird

/// `DELETE /v1/videos/{id}` (issue 65): the post's uploader's token, or an admin token, deletes it.
extension FeedServer {
    func addDeletionRoutes(to router: Router<FeedRequestContext>, desk: UploadDesk, deleter: PostDeleter) {
        router.delete("/v1/videos/:id") { request, context in
            let token = try await desk.authenticate(request.headers[.authorization])
            return try await self.deleteVideo(
                id: try context.parameters.require("id"), token: token, deleter: deleter)
        }
    }

    func deleteVideo(id: String, token: UploadToken, deleter: PostDeleter) async throws -> Response {
        try await requireOwnership(of: id, token: token, deleter: deleter)
        let reason = token.isAdmin ? "admin" : "creator"
        switch try await deleter.delete(id: id, reason: reason, now: Self.now) {
        case .notFound:
            throw APIError.notFound("video \"\(id)\"")
        case .alreadyDeleted:
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        case let .deleted(report):
            return JSONBody.response(bytes: DeletionBody.json(report), headers: [.cacheControl: "no-store"])
        }
    }

    /// An id Reel could have given a post: a server-made id, or a seeded one (`v000000001`); at most 64 of `[a-z0-9]`.
    static func isVideoID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64
            && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
    }
}

/// The answer to a deletion: what went.
package enum DeletionBody {
    package static func json(_ report: PostDeleter.Report) -> [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.object { json in
            json.key("id")
            json.string(report.id)
            json.key("deleted_at")
            json.timestamp(milliseconds: report.deletedAt)
            json.key("reason")
            json.string(report.reason)
            json.key("removed")
            json.object { json in
                json.key("from_feed")
                json.bool(report.rows.video)
                json.key("renditions")
                json.int(report.rows.renditions)
                json.key("media_objects")
                json.int(report.media.objects)
                json.key("original")
                json.bool(report.media.original)
                json.key("viewer_events")
                json.int(report.rows.viewerEvents)
                json.key("stats")
                json.bool(report.rows.stats)
                json.key("job")
                json.bool(report.rows.job)
                json.key("uploads")
                json.int(report.rows.uploads)
            }
        }
        return json.bytes
    }
}
