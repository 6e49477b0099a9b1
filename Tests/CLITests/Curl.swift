import Foundation
import MediaFixtures

/// One HTTP request through curl, suspending meanwhile: the status and the headers of its answer, and its body.
enum Curl {
    struct Answer: CustomStringConvertible {
        let status: Int
        /// Names lowercased.
        let headers: [String: String]
        let body: String
        var description: String { "\(status) \(headers) \(body)" }

        /// The JSON error body's `error.code`, if any.
        var errorCode: String? {
            let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            return (json?["error"] as? [String: Any])?["code"] as? String
        }
    }

    /// `curl -s` with `arguments` (no `Expect: 100-continue`), within 60 s.
    static func run(_ arguments: [String]) async throws -> Answer {
        let headerFile = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: headerFile) }
        let run = try await ChildProcess.run(
            ["/usr/bin/curl", "-s", "-D", headerFile, "--max-time", "30", "-H", "Expect:"] + arguments,
            within: .seconds(60))
        let lines = ((try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? "").split(separator: "\r\n")
        let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Answer(status: status, headers: headers, body: run.stdout)
    }
}
