import Foundation

/// A fresh directory under the system's temporary folder, removed with the value: each test gets its own.
final class ScratchDirectory {
    let path: String

    init() throws {
        // Canonical from the start, so tests can compare resolved paths with it.
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).resolvingSymlinksInPath().path
        path = base + "/reel-fs-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let target = file(name)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    func link(_ name: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: file(name), withDestinationPath: destination)
    }
}
