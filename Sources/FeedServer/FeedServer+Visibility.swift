internal import Catalog
internal import Foundation
internal import Hummingbird

/// Private and unlisted posts (issue 65): `PATCH /v1/videos/{id}` sets a post's visibility, and a private post's
/// `GET /v1/videos/{id}` is answered, with signed media URLs, only to its uploader's token or an admin token.
extension FeedServer {
    func addVisibilityRoutes(to router: Router<FeedRequestContext>, desk: UploadDesk, deleter: PostDeleter) {
        router.patch("/v1/videos/:id") { request, context in
            let token = try await desk.authenticate(request.headers[.authorization])
            let id = try context.parameters.require("id")
            try await self.requireOwnership(of: id, token: token, deleter: deleter)
            let change = try await Self.visibilityChange(request)
            guard let access = accessGate?.access,
                try await access.setVisibility(
                    id: id, to: change.visibility, revokingLinks: change.revoke, now: Self.now) != nil
            else { throw APIError.notFound("video \"\(id)\"") }
            return try await self.videoAnswer(id: id, authorized: true, request: request)
        }
    }

    /// The post's uploader's token or an admin token; any other is told the post is not there, as another token's
    /// upload is.
    func requireOwnership(of id: String, token: UploadToken, deleter: PostDeleter) async throws {
        guard Self.isVideoID(id) else { throw APIError.notFound("video \"\(id.prefix(64))\"") }
        if !token.isAdmin, try await deleter.catalog.uploaderTokenID(ofVideo: id) != token.id {
            throw APIError.notFound("video \"\(id)\" among token \"\(token.name)\"'s uploads")
        }
    }

    /// `{"visibility": "public"|"unlisted"|"private", "revoke_links": true}`; `revoke_links` may stand alone.
    static func visibilityChange(_ request: Request) async throws -> (visibility: Visibility, revoke: Bool) {
        func invalid(_ message: String, field: String? = nil) -> APIError {
            APIError(.badRequest, code: "invalid_body", message: message, field: field)
        }
        let bytes: [UInt8]
        do { bytes = try await collect(request.body, limit: 4096) } catch {
            throw invalid("the body must be a JSON object of at most 4096 bytes")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw invalid(#"the body must be a JSON object, such as {"visibility": "private"}"#)
        }
        if let unknown = object.keys.sorted().first(where: { !["visibility", "revoke_links"].contains($0) }) {
            throw invalid("unknown field \"\(unknown.prefix(40))\"; only visibility and revoke_links", field: unknown)
        }
        // Typed by JSONDecoder, which takes only true or false for a Bool (JSONSerialization reads 1 as true).
        struct Change: Decodable {
            var visibility: Visibility?
            var revoke_links: Bool?
        }
        let change: Change
        do { change = try JSONDecoder().decode(Change.self, from: Data(bytes)) } catch {
            let field = (error as? DecodingError).flatMap(Self.codingPath)?.first?.stringValue
            throw field == "revoke_links"
                ? invalid("revoke_links must be true or false", field: "revoke_links")
                : invalid("visibility must be public, unlisted or private", field: "visibility")
        }
        let revoke = change.revoke_links ?? false
        guard let visibility = change.visibility else {
            guard revoke else { throw invalid("give visibility, or revoke_links: true", field: "visibility") }
            return (.private, true)
        }
        return (visibility, revoke)
    }

    /// Where a decoding error happened.
    static func codingPath(_ error: DecodingError) -> [any CodingKey]? {
        switch error {
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .keyNotFound(_, context),
            let .dataCorrupted(context):
            context.codingPath
        @unknown default: nil
        }
    }

    /// A video's item. A private post's is answered only when `authorized`, with media URLs signed for
    /// `?expires_in=` seconds (1 h by default, at most 24 h); otherwise it is as missing as any.
    func videoAnswer(id: String, authorized: Bool, request: Request) async throws -> Response {
        guard let item = try await store.item(id: id) else { throw APIError.notFound("video \"\(id.prefix(64))\"") }
        let video: FeedVideo
        do { video = try item.video() } catch { throw CatalogError(.other, "video \(id): \(error)") }
        guard video.post.visibility == .private else {
            return JSONBody.response(bytes: try renderedItems.json(for: [item])[0])
        }
        guard authorized, let gate = accessGate else { throw APIError.notFound("video \"\(id)\"") }
        let lifetime = try Self.lifetime(request)
        let token = gate.signer.token(id: id, epoch: video.accessEpoch, expires: Self.now / 1000 + lifetime)
        let json = FeedItemRenderer.render(video, mediaBase: mediaBaseURL.signed(token))
        return JSONBody.response(bytes: json, headers: [.cacheControl: "private, no-store"])
    }

    /// `?expires_in=`: 1 to 86,400 seconds.
    static func lifetime(_ request: Request) throws -> Int64 {
        guard let text = request.uri.queryParameters.get("expires_in") else { return PlaybackSigner.defaultLifetime }
        guard let seconds = Int64(text), (1...PlaybackSigner.maximumLifetime).contains(seconds) else {
            throw APIError(
                .badRequest, code: "invalid_expires_in",
                message:
                    "expires_in must be 1 to \(PlaybackSigner.maximumLifetime) seconds, not \"\(text.prefix(20))\"",
                field: "expires_in")
        }
        return seconds
    }
}

extension MediaBaseURL {
    /// This base with a signed URL's token after it: `/media/s/<token>/`.
    func signed(_ token: String) -> MediaBaseURL { MediaBaseURL(checkedBytes: bytes + Array("s/\(token)/".utf8)) }
}
