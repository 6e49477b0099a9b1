import Foundation
import MediaFixtures

/// A viewer's side of `reel serve`'s events, by curl, as a page does it: a session token from `POST /v1/sessions`,
/// then batches as `application/json` with the token in `Reel-Session`.
enum ViewerSessionClient {
    struct NoSession: Error, CustomStringConvertible {
        let description: String
    }

    /// A new session's token from the server at `base`.
    /// - Throws: `NoSession` with what the server said, when it gave none.
    static func token(_ base: String) async throws -> String {
        let asked = try await ChildProcess.run([
            "/usr/bin/curl", "-s", "--max-time", "30", "-X", "POST", base + "/v1/sessions",
        ])
        let body = (try? JSONSerialization.jsonObject(with: Data(asked.stdout.utf8))) as? [String: Any]
        guard let token = body?["token"] as? String else {
            throw NoSession(description: "POST /v1/sessions gave no token: \(asked.stdout) \(asked.stderr)")
        }
        return token
    }

    /// Posts `batch` (JSON text, or `@file`) with `token`; the HTTP status curl saw ("000" when there was none).
    static func post(_ batch: String, token: String, to base: String) async throws -> String {
        try await ChildProcess.run([
            "/usr/bin/curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "60",
            "-H", "Content-Type: application/json", "-H", "Reel-Session: \(token)", "--data-binary", batch,
            base + "/v1/events",
        ]).stdout
    }
}
