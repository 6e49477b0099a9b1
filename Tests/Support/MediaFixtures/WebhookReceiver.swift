import Foundation

/// `scripts/webhook-receiver.py` as a child: a receiver that checks Reel's signatures with Python's hmac module (not
/// Reel's code), de-duplicates by event id, and logs what it saw. Its files outlive it, so a receiver started again
/// on the same files and port carries on where the last one stopped.
package final class WebhookReceiver: Sendable {
    package let port: Int
    package let secretFile: String
    package let eventsFile: String
    package let attemptsFile: String
    package let process: ChildProcess

    /// This file is Tests/Support/MediaFixtures/WebhookReceiver.swift: four levels below the package root.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/webhook-receiver.py")
        .path

    /// Starts a receiver on `port` of `host` keeping its logs in `directory`; `hang` deliveries are never answered.
    package init(
        directory: String, port: Int, secret: String, hang: Int = 0, status: Int = 200, host: String = "127.0.0.1"
    ) throws {
        self.port = port
        secretFile = directory + "/webhook-secret"
        eventsFile = directory + "/webhook-events.jsonl"
        attemptsFile = directory + "/webhook-attempts.jsonl"
        try Data(secret.utf8).write(to: URL(fileURLWithPath: secretFile))
        let command = [
            "/usr/bin/python3", Self.script, "--host", host, "--port", String(port), "--secret-file", secretFile,
            "--events",
            eventsFile, "--attempts", attemptsFile, "--hang", String(hang), "--status", String(status),
        ]
        process = try ChildProcess(command)
    }

    /// Whether it said it is listening, within `seconds`.
    package func listening(seconds: Double = 20) async -> Bool {
        await ChildProcess.suspendUntil(seconds: seconds) {
            process.stdout.hasPrefix("listening on ") || process.hasExited
        } && process.stdout.hasPrefix("listening on ")
    }

    /// The events it saw, once each, in the order they first arrived.
    package var events: [[String: Any]] { Self.lines(eventsFile) }
    /// Every delivery attempt: `event` and `type` (nil when the signature did not verify), `verified`, `attempt`.
    package var attempts: [[String: Any]] { Self.lines(attemptsFile) }

    /// The events of `type` about post `id`.
    package func events(_ type: String, id: String) -> [[String: Any]] {
        events.filter { $0["type"] as? String == type && ($0["data"] as? [String: Any])?["id"] as? String == id }
    }

    static func lines(_ path: String) -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
