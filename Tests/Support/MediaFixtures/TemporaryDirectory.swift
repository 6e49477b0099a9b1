import Foundation

/// A directory of its own for each test, removed when the test is done with it.
package final class TemporaryDirectory: Sendable {
    package let path: String

    package init() throws {
        path = FileManager.default.temporaryDirectory.path + "/reel-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    package func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    package func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let target = file(name)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    @discardableResult
    package func write(_ name: String, text: String) throws -> String { try write(name, Array(text.utf8)) }
}
