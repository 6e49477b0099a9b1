package import Logging
import Synchronization

/// Log messages kept in memory, for a test that checks what a server or a worker said (and how often).
package final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    package init() {}

    package var all: [String] { lines.withLock { $0 } }

    /// A logger at `level` whose messages land here.
    package func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "test") { _ in Handler(lines: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { lines.append("\(event.message)") }
    }
}
