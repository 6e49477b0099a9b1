import Catalog
import Foundation
import Hummingbird
import HummingbirdTesting
import MediaModel
import SQLiteCatalog
import Testing

@testable import FeedServer

/// `PATCH /v1/videos/{id}` and private posts (issue 65): an unlisted post plays by link but is in no feed; a private
/// one's item is its uploader's or an admin's only, with media URLs signed for a while; unsigned, tampered, expired
/// and revoked URLs are 403 before any file is read; a rotated key keeps earlier URLs playing.
extension PostRoutesTests {
    func patch(
        _ client: some TestClientProtocol, _ id: String, _ body: String, token: String?
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(
            uri: "/v1/videos/\(id)", method: .patch, headers: headers, body: ByteBuffer(string: body))
    }

    func get(_ client: some TestClientProtocol, _ uri: String, token: String? = nil) async throws -> TestResponse {
        try await client.execute(
            uri: uri, method: .get, headers: token.map { [.authorization: "Bearer \($0)"] } ?? [:])
    }

    /// The `master_url` of an item answer.
    static func master(_ response: TestResponse) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))
        return try #require((object as? [String: Any])?["master_url"] as? String)
    }

    @Test func anUnlistedPostPlaysByLinkButIsInNoFeed() async throws {
        let id = LibraryLayout.newID()
        try await publishedUpload(id: id)
        try await app.test(.router) { client in
            #expect(try await patch(client, id, #"{"visibility":"unlisted"}"#, token: other).status == .notFound)
            #expect(try await patch(client, id, #"{"visibility":"unlisted"}"#, token: nil).status == .unauthorized)
            let changed = try await patch(client, id, #"{"visibility":"unlisted"}"#, token: owner)
            #expect(changed.status == .ok, "\(String(buffer: changed.body))")
            #expect(!String(buffer: try await get(client, "/v1/feed").body).contains(id))
            let item = try await get(client, "/v1/videos/\(id)")
            let master = try Self.master(item)
            #expect(item.status == .ok && !master.contains("/s/"))
            #expect(try await get(client, try Self.master(item)).status == .ok, "unsigned, as a public post's")
        }
    }

    @Test func aPrivatePostPlaysOnlyThroughSignedURLsUntilTheyAreRevoked() async throws {
        let id = LibraryLayout.newID()
        try await publishedUpload(id: id)
        try await app.test(.router) { client in
            let plain = "/media/" + LibraryLayout.video(id, epoch: 1) + "/master.m3u8"
            let changed = try await patch(client, id, #"{"visibility":"private"}"#, token: owner)
            #expect(changed.status == .ok, "\(String(buffer: changed.body))")
            #expect(changed.headers[.cacheControl] == "private, no-store")
            let signed = try Self.master(changed)
            #expect(
                signed.hasPrefix("/media/s/") && signed.hasSuffix(LibraryLayout.video(id, epoch: 1) + "/master.m3u8"))

            // Anyone else: not in the feed, no item, no file.
            #expect(!String(buffer: try await get(client, "/v1/feed").body).contains(id))
            #expect(try await get(client, "/v1/videos/\(id)").status == .notFound)
            #expect(try await get(client, "/v1/videos/\(id)", token: other).status == .notFound)
            let unsigned = try await get(client, plain)
            #expect(unsigned.status == .forbidden && String(buffer: unsigned.body).contains("private"))

            // The signed URL plays, the segment below it too; a changed byte of it does not.
            let answer = try await get(client, signed)
            #expect(answer.status == .ok && answer.headers[.cacheControl]?.hasPrefix("private, max-age=") == true)
            let segment = signed.replacingOccurrences(of: "master.m3u8", with: "360p/seg_000.m4s")
            #expect(try await get(client, segment).status == .ok)
            var tampered = Array(signed.utf8)
            let at = "/media/s/".utf8.count + 12
            tampered[at] = tampered[at] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            #expect(try await get(client, String(decoding: tampered, as: UTF8.self)).status == .forbidden)
            let other = LibraryLayout.video(LibraryLayout.newID(), epoch: 1)
            let elsewhere = signed.replacingOccurrences(of: LibraryLayout.video(id, epoch: 1), with: other)
            #expect(try await get(client, elsewhere).status == .forbidden, "signed for one post only")

            // An admin's item has signed URLs too, for as long as it asks.
            let admins = try await get(client, "/v1/videos/\(id)?expires_in=60", token: admin)
            let adminsMaster = try Self.master(admins)
            #expect(admins.status == .ok && adminsMaster.hasPrefix("/media/s/"))
            #expect(try await get(client, "/v1/videos/\(id)?expires_in=90000", token: admin).status == .badRequest)

            // Revoked: every URL signed before stops at once; a new one plays.
            let revoked = try await patch(client, id, #"{"revoke_links":true}"#, token: owner)
            #expect(revoked.status == .ok)
            #expect(try await get(client, signed).status == .forbidden)
            #expect(try await get(client, try Self.master(revoked)).status == .ok)

            // Public again: the plain URL plays, and the feed lists it.
            #expect(try await patch(client, id, #"{"visibility":"public"}"#, token: owner).status == .ok)
            #expect(try await get(client, plain).status == .ok)
            #expect(String(buffer: try await get(client, "/v1/feed").body).contains(id))
        }
    }

    @Test func anExpiredURLIsRefusedAndARotatedKeyStillVerifies() async throws {
        try await publish("secret", visibility: .private)
        let now = Int64(Date().timeIntervalSince1970)
        let path = "/videos/secret.e1/master.m3u8"
        let oldKey = ViewerSessionKeys.random()
        let newKey = ViewerSessionKeys.random()
        var server = self.server
        server.signer = PlaybackSigner(keys: ViewerSessionKeys(keys: newKey.keys + oldKey.keys))
        let old = PlaybackSigner(keys: oldKey)
        try await Application(router: server.router()).test(.router) { client in
            let byOldKey = "/media/s/" + old.token(id: "secret", epoch: 0, expires: now + 60) + path
            #expect(try await get(client, byOldKey).status == .ok, "a key rotated out of first place still verifies")
            let expired = try await get(
                client, "/media/s/" + old.token(id: "secret", epoch: 0, expires: now - 1) + path)
            #expect(expired.status == .forbidden && String(buffer: expired.body).contains("signature_expired"))
            let unknown = PlaybackSigner(keys: .random()).token(id: "secret", epoch: 0, expires: now + 60)
            #expect(try await get(client, "/media/s/" + unknown + path).status == .forbidden)
            let farOff = "/media/s/" + old.token(id: "secret", epoch: 0, expires: now + 400_000) + path
            #expect(try await get(client, farOff).status == .forbidden, "longer than any URL is given")
            for junk in ["", "x", "1.", ".abc", "99999999999999999999.AAAA"] {
                #expect(try await get(client, "/media/s/" + junk + path).status != .ok, "\(junk)")
            }
        }
    }

    @Test(
        arguments: [
            (#"{"visibility":"secret"}"#, "visibility"), (#"{"visibility":1}"#, "visibility"),
            (#"{"revoke_links":"yes"}"#, "revoke_links"), (#"{"revoke_links":1}"#, "revoke_links"),
            (#"{"colour":"red"}"#, "colour"), ("{}", "visibility"),
            ("not json", nil),
        ] as [(String, String?)])
    func aBadPatchIs400NamingTheField(body: String, field: String?) async throws {
        try await publish("p1")
        try await app.test(.router) { client in
            let response = try await patch(client, "p1", body, token: admin)
            #expect(response.status == .badRequest, "\(String(buffer: response.body))")
            let error = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))
            let detail = (error as? [String: [String: String]])?["error"]
            #expect(detail?["code"] == "invalid_body" && detail?["field"] == field, "\(String(describing: detail))")
        }
    }
}
