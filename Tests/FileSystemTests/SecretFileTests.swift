import FileSystem
import Foundation
import Synchronization
import TestTraits
import Testing

/// A secret file is made once, mode 0600, and read as it is after; one open to group or others is refused; several
/// makers at once all end up with the first one's bytes.
@Suite(.offThePool, .timeLimit(.minutes(2))) struct SecretFileTests {
    static func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func aMissingFileIsMadeOwnerOnlyAndThenReadAsItIs() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("key")
        let made = try SecretFile.readOrCreate(path) { Array("first\n".utf8) }
        #expect(made.created && made.bytes == Array("first\n".utf8))
        #expect(try Self.mode(path) == 0o600)
        let again = try SecretFile.readOrCreate(path) { Array("second\n".utf8) }
        #expect(!again.created && again.bytes == Array("first\n".utf8))
        #expect(scratch.names() == ["key"])
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660])
    func aFileOthersCanReachIsRefused(mode: Int) throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("key", Array("k\n".utf8))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        #expect(throws: SecretFile.Failure.tooOpen(path: path, mode: UInt32(mode))) {
            try SecretFile.readOrCreate(path) { [] }
        }
    }

    @Test func aSymlinkToAnOwnerOnlyFileIsFollowed() throws {
        let scratch = try ScratchDirectory()
        let target = try scratch.write("mounted/key", Array("k\n".utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
        try scratch.link("key", to: target)
        #expect(try SecretFile.read(scratch.file("key")) == Array("k\n".utf8))
        #expect(throws: SecretFile.Failure.notRegularFile(path: scratch.path)) { try SecretFile.read(scratch.path) }
    }

    /// Eight makers at once, each with bytes of its own, on threads of their own: every one reads the same bytes.
    @Test func makersAtOnceAllEndWithOneFile() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("key")
        let outcomes = Mutex([[UInt8]](repeating: [], count: 8))
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let bytes = (try? SecretFile.readOrCreate(path) { Array("maker \(index)\n".utf8) }.bytes) ?? []
            outcomes.withLock { $0[index] = bytes }
        }
        let file = try SecretFile.read(path)
        let read = outcomes.withLock { $0 }
        #expect(!file.isEmpty && read.allSatisfy { $0 == file }, "\(read.map { String(decoding: $0, as: UTF8.self) })")
        #expect(scratch.names() == ["key"])
    }
}
