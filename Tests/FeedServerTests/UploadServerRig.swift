import Catalog
import Foundation
import MediaFixtures
import MediaModel
import SQLiteCatalog

@testable import FeedServer

/// A server that takes uploads (tus) with one token, for the suites that drive it over raw sockets.
struct UploadServerRig {
    let rig: ServerRig
    let token: String
    var server: FeedServer

    init() async throws {
        rig = try ServerRig()
        let (secret, hash) = try BearerToken.generate()
        try await rig.store.createToken(UploadToken(id: "raw", name: "raw", hash: hash, rateLimit: nil, createdAt: 1))
        token = secret
        server = rig.server
        server.uploads = try UploadDesk(
            store: rig.store,
            configuration: UploadConfiguration(library: rig.directory.file("library"), limits: .default))
    }

    /// The tus headers of an authenticated request.
    var tus: String { "Authorization: Bearer \(token)\r\nTus-Resumable: 1.0.0\r\n" }

    /// Creates an upload of `length` bytes on a connection of its own; returns its path. Tests declare one byte more
    /// than they send, so the upload stays open and its made-up bytes are never judged as media.
    func create(length: Int, port: Int) async throws -> String {
        let request =
            "POST /v1/uploads HTTP/1.1\r\nHost: x\r\n\(tus)Upload-Length: \(length)\r\nContent-Length: 0\r\n"
            + "Connection: close\r\n\r\n"
        let answer = try await RawSocket.offThePool {
            let socket = try RawSocket(port: port)
            try socket.send(request)
            return socket.receiveUntilClosed().text
        }
        guard answer.hasPrefix("HTTP/1.1 201 "), let location = RawSocket.header("location", in: answer)
        else { throw UploadRigError(answer: answer) }
        return location
    }

    /// `count` bytes that begin as an MP4 does (an `ftyp` box), so the upload is not refused on its first bytes.
    static func mp4Like(_ count: Int) -> [UInt8] {
        let head: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
        return head + [UInt8](repeating: 0x6D, count: count - head.count)
    }

    /// The upload's offset, from HEAD.
    func offset(of location: String, port: Int) async throws -> Int? {
        let request = "HEAD \(location) HTTP/1.1\r\nHost: x\r\n\(tus)Connection: close\r\n\r\n"
        let answer = try await RawSocket.offThePool {
            let socket = try RawSocket(port: port)
            try socket.send(request)
            return socket.receiveUntilClosed().text
        }
        return RawSocket.header("upload-offset", in: answer).flatMap { Int($0) }
    }

    struct UploadRigError: Error, CustomStringConvertible {
        let answer: String
        var description: String { "the upload was not created: \(answer.prefix(500))" }
    }
}
