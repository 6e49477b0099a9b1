import Foundation

/// A directory of its own for each test, removed when the test is done with it.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init() throws {
        path = FileManager.default.temporaryDirectory.path + "/reel-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    public func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let target = file(name)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    @discardableResult
    public func write(_ name: String, text: String) throws -> String { try write(name, Array(text.utf8)) }
}
