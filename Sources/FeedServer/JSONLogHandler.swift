internal import FileSystem
internal import Foundation
package import Logging
internal import Synchronization

/// One JSON object per line on stderr: time, level, label, message and the metadata as fields, so logs from the
/// server and the worker can be filtered by job id, file or reason without parsing prose.
package struct JSONLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    package var metadataProvider: Logger.MetadataProvider?
    let label: String
    private static let lock = Mutex(())

    package init(label: String) { self.label = label }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var fields: [String: Any] = [
            "time": Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            "level": event.level.rawValue,
            "label": label,
            "message": "\(event.message)",
        ]
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        for (key, value) in merged where fields[key] == nil { fields[key] = Self.plain(value) }
        guard
            var data = try? JSONSerialization.data(
                withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        data.append(0x0A)
        Self.lock.withLock { _ in StandardError.write(data) }
    }

    static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let value): "\(value)"
        case .array(let values): values.map(plain)
        case .dictionary(let values): values.mapValues(plain)
        }
    }
}
