import Foundation
import MediaFixtures
import TestTraits
import Testing

@testable import SigV4

/// Reel's signer against botocore's (PyPI, pinned 1.43.11) on generated requests: keys with spaces, `+`, `%`,
/// reserved characters, unicode and empty components; queries with the same; headers with runs of spaces; empty,
/// small and multi-megabyte payloads; session tokens; dates from 1970 to 2100; and presigned URLs. Both sign the
/// same case and the Authorization header (or every presigned query parameter) must be the same.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct BotocoreCrossCheckTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/botocore-sigv4.py").path

    struct Case: Encodable {
        let id: Int
        let method: String
        let scheme = "http"
        let host: String
        let path: String
        let query: [[String]]
        let headers: [[String]]
        /// The payload is `payload_size` bytes of `payload(size:seed:)`, made again on each side, so the cases file
        /// stays small while the payloads reach 5 MB.
        let payload_size: Int
        let payload_seed: Int
        let region: String
        let access: String
        let secret: String
        let token: String?
        let unix: Int64
        let presign_expires: Int?
    }

    struct Signed: Decodable {
        let id: Int
        let authorization: String?
        let content_sha256: String?
        let token: String?
        let query: [String]?
    }

    /// The cases are the same each run, so a failure names a case that can be made again.
    typealias Generator = SeededGenerator

    static let pieces = [
        "a", "Z", "9", "video", " ", "  ", "+", "%", "%20", "=", "&", "~", "-", "_", ".", "!", "*", "'", "(", ")",
        ",", ";", ":", "@", "$", "#", "[", "]", "ü", "é", "日本", "🎬", "\u{00A0}", "segment_001.m4s", "..", "//",
    ]

    static func text(_ generator: inout Generator, length: Int, ascii: Bool = false) -> String {
        // Header values stay ASCII (HTTP's own rule): Python's split() would also fold a no-break space.
        let choices = ascii ? pieces.filter { $0.allSatisfy(\.isASCII) } : pieces
        return (0..<length).map { _ in generator.pick(choices) }.joined()
    }

    static func cases() -> [Case] {
        var generator = Generator(state: 31)
        var cases: [Case] = []
        for id in 0..<240 {
            let presign = id % 4 == 3
            let segments = (0..<(1 + generator.below(4))).map { _ in text(&generator, length: 1 + generator.below(6)) }
            let path = "/reel-media/" + segments.joined(separator: "/")
            var names = Set<String>()
            var query: [[String]] = []
            for _ in 0..<generator.below(4) {
                let name = text(&generator, length: 1 + generator.below(3))
                // X-Amz-* names are the presigner's own; botocore keeps one value per name.
                guard !name.lowercased().hasPrefix("x-amz"), names.insert(name).inserted else { continue }
                query.append([name, generator.below(5) == 0 ? "" : text(&generator, length: generator.below(5))])
            }
            var headers: [[String]] = []
            if !presign {
                if generator.below(2) == 0 {
                    headers.append(["Content-Type", generator.pick(["video/mp4", "application/vnd.apple.mpegurl"])])
                }
                if generator.below(2) == 0 {
                    headers.append(["Cache-Control", "public,   max-age=31536000,  immutable"])
                }
                if generator.below(3) == 0 { headers.append(["Range", "bytes=\(generator.below(1000))-"]) }
                if generator.below(4) == 0 { headers.append(["If-None-Match", "*"]) }
                if generator.below(4) == 0 {
                    headers.append(["X-Amz-Meta-Title", " " + text(&generator, length: 3, ascii: true) + " "])
                }
            }
            let size = presign ? 0 : generator.pick([0, 0, 1, 17, 4096, 65_537, 5 << 20 | 3])
            let token: String? =
                generator.below(5) == 0 ? "FwoGZXIvYXdzE" + text(&generator, length: 4, ascii: true) : nil
            cases.append(
                Case(
                    id: id, method: presign ? "GET" : generator.pick(["GET", "PUT", "HEAD", "DELETE", "POST"]),
                    host: generator.pick([
                        "127.0.0.1:8333", "s3.eu-west-3.amazonaws.com", "reel-media.s3.amazonaws.com",
                    ]),
                    path: path, query: query, headers: headers, payload_size: size, payload_seed: id,
                    region: generator.pick(["us-east-1", "eu-west-3", "ap-southeast-2"]),
                    access: "AKIA" + String(generator.next(), radix: 36).uppercased(),
                    secret: "s3cr3t/" + String(generator.next(), radix: 36) + "+" + String(generator.next(), radix: 16),
                    token: token, unix: Int64(generator.below(4_102_444_800)),
                    presign_expires: presign ? 1 + generator.below(SigV4Signer.maxExpirySeconds) : nil))
        }
        return cases
    }

    /// A 256-byte run starting at `seed`, repeated: cheap to make in Swift and in Python, different per case.
    static func payload(size: Int, seed: Int) -> [UInt8] {
        let run = (0..<256).map { UInt8(truncatingIfNeeded: $0 + seed) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size + 256)
        while bytes.count < size { bytes += run }
        return Array(bytes.prefix(size))
    }

    @Test func reelSignsEveryGeneratedRequestAsBotocoreDoes() async throws {
        let directory = try TemporaryDirectory()
        let cases = Self.cases()
        let input = try directory.write("cases.json", Array(JSONEncoder().encode(cases)))
        let run = try await ChildProcess.run(["/usr/bin/env", "python3", Self.script, input], within: .seconds(120))
        try #require(run.status == 0, "botocore-sigv4.py failed (\(run.status)): \(run.stderr.suffix(2000))")
        let signed = try run.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(Signed.self, from: Data($0.utf8))
        }
        try #require(signed.count == cases.count)
        var presigned = 0
        for (reference, spec) in zip(signed, cases) {
            #expect(reference.id == spec.id)
            let signer = SigV4Signer(
                credentials: SigV4Credentials(
                    accessKeyID: spec.access, secretAccessKey: spec.secret, sessionToken: spec.token),
                region: spec.region)
            let request = SigV4Request(
                method: spec.method, path: spec.path, query: spec.query.map { ($0[0], $0[1]) },
                headers: [("host", spec.host)] + spec.headers.map { ($0[0], $0[1]) })
            let date = AmzDate(unixSeconds: spec.unix)
            if let expires = spec.presign_expires {
                presigned += 1
                let query = try signer.presignedQuery(for: request, expires: expires, date: date)
                #expect(
                    query.split(separator: "&").map(String.init).sorted() == reference.query,
                    "case \(spec.id): \(spec.path)")
            } else {
                let payload = Self.payload(size: spec.payload_size, seed: spec.payload_seed)
                let headers = try signer.signedHeaders(
                    for: request, payloadHash: SigV4Signer.payloadHash(payload), date: date)
                let authorization = headers.first { $0.name == "Authorization" }?.value
                #expect(authorization == reference.authorization, "case \(spec.id): \(spec.method) \(spec.path)")
                #expect(headers.first { $0.name == "x-amz-content-sha256" }?.value == reference.content_sha256)
                #expect(headers.first { $0.name == "x-amz-security-token" }?.value == reference.token)
            }
        }
        #expect(presigned == 60)
    }
}
