import FileSystem
import Foundation
import Testing

extension ScratchDirectory {
    func names(_ relative: String = "") -> [String] {
        ((try? Directory.entries(of: path + "/" + relative)) ?? []).map { String(decoding: $0.name, as: UTF8.self) }
            .sorted()
    }
}

@Suite(.timeLimit(.minutes(5))) struct AtomicFileTests {
    @Test func writesTheWholeFileAndLeavesNoTemporary() throws {
        let scratch = try ScratchDirectory()
        try AtomicFile.write(Array("first".utf8), to: scratch.path + "/a.json")
        try AtomicFile.write(Array("second, longer".utf8), to: scratch.path + "/a.json")
        #expect(try ReadOnlyFile.contents(of: scratch.path + "/a.json") == Array("second, longer".utf8))
        #expect(scratch.names() == ["a.json"])
    }

    @Test func aFailureNamesTheCallAndPathAndLeavesNothing() throws {
        let scratch = try ScratchDirectory()
        let error = #expect(throws: FileSystemError.self) {
            try AtomicFile.write([1, 2, 3], to: scratch.path + "/missing-folder/a.bin")
        }
        #expect(error?.call == "open" && error?.isNotFound == true && error?.path.contains("missing-folder") == true)
        #expect(scratch.names() == [])
    }
}

@Suite(.timeLimit(.minutes(5))) struct StagingDirectoryTests {
    @Test func publishesWholeAndNeverOverwrites() throws {
        let scratch = try ScratchDirectory()
        let final = scratch.path + "/out"
        let staging = try StagingDirectory(besides: final)
        #expect(staging.path.hasPrefix(scratch.path + "/.out.staging-"))
        try AtomicFile.write([1], to: staging.path + "/one", durable: false)
        try staging.publish(to: final)
        #expect(scratch.names() == ["out"] && scratch.names("out") == ["one"])
        let second = try StagingDirectory(besides: final)
        let error = #expect(throws: FileSystemError.self) { try second.publish(to: final) }
        #expect(error?.call == "rmdir" || error?.call == "renameat2")
        second.discard()
        #expect(scratch.names() == ["out"] && scratch.names("out") == ["one"])
    }

    @Test func publishesOneEntryIntoAnEmptyPlace() throws {
        let scratch = try ScratchDirectory()
        let staging = try StagingDirectory(creating: scratch.path + "/job")
        try AtomicFile.write([7, 7], to: staging.path + "/media.webp", durable: false)
        try staging.publish("media.webp", to: scratch.path + "/image.webp")
        #expect(try ReadOnlyFile.contents(of: scratch.path + "/image.webp") == [7, 7])
        #expect(scratch.names("job") == [])
    }
}

@Suite(.timeLimit(.minutes(5))) struct ReadOnlyFileTests {
    @Test func refusesSymlinksFIFOsAndDirectoriesByKind() throws {
        let scratch = try ScratchDirectory()
        try AtomicFile.write([1], to: scratch.path + "/real")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path + "/link", withDestinationPath: scratch.path + "/real")
        #expect(mkfifo(scratch.path + "/fifo", 0o600) == 0)
        for (name, kind) in [("link", DirectoryEntry.Kind.symlink), ("fifo", .fifo), ("", .directory)] {
            let error = #expect(throws: ReadOnlyFile.OpenError.self) {
                _ = try ReadOnlyFile(path: scratch.path + "/" + name)
            }
            #expect(error == .notRegularFile(path: scratch.path + "/" + name, kind: kind))
        }
        #expect(try ReadOnlyFile(path: scratch.path + "/real").size == 1)
    }

    @Test func readsAtOffsetsAndStopsAtTheEnd() throws {
        let scratch = try ScratchDirectory()
        try AtomicFile.write(Array(0..<100), to: scratch.path + "/bytes")
        let file = try ReadOnlyFile(path: scratch.path + "/bytes")
        #expect(try file.read(count: 4, at: 10) == [10, 11, 12, 13])
        #expect(try file.read(count: 50, at: 90) == Array(90..<100))
    }
}

@Suite(.timeLimit(.minutes(5))) struct ContentHashTests {
    @Test func matchesKnownSHA256Digests() throws {
        let scratch = try ScratchDirectory()
        try AtomicFile.write([UInt8](), to: scratch.path + "/empty")
        try AtomicFile.write(Array("abc".utf8), to: scratch.path + "/abc")
        // FIPS 180-2 test vectors.
        #expect(
            try ContentHash.sha256(ofFile: scratch.path + "/empty")
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            try ContentHash.sha256(ofFile: scratch.path + "/abc")
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // Across block boundaries: 3 MiB of a repeating pattern, hashed in 1 MiB blocks, equals one update.
        let big = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try AtomicFile.write(big, to: scratch.path + "/big")
        let whole = try ContentHash()
        big.withUnsafeBytes { whole.update($0) }
        #expect(try ContentHash.sha256(ofFile: scratch.path + "/big") == whole.finish())
    }
}

@Suite(.timeLimit(.minutes(5))) struct DirectoryTests {
    @Test func createMakesParentsAndNamesTheFailingComponent() throws {
        let scratch = try ScratchDirectory()
        try Directory.create(scratch.path + "/a/b/c")
        try Directory.create(scratch.path + "/a/b/c")
        #expect(Directory.isDirectory(scratch.path + "/a/b/c"))
        try AtomicFile.write([1], to: scratch.path + "/file")
        let error = #expect(throws: FileSystemError.self) { try Directory.create(scratch.path + "/file/x") }
        #expect(error?.call == "mkdir" && error?.path == scratch.path + "/file")
    }

    /// readdir's records are as long as their names, so the last one in its 32 KiB buffer can end within 256 bytes
    /// of it. Reading `d_name` as Swift imports it (a 256-byte tuple, copied whole) read past the buffer: under
    /// `scripts/sanitize.sh` AddressSanitizer reported a heap-buffer-overflow here, in a plain build nothing.
    @Test func listsMoreShortNamesThanReaddirsBufferHolds() throws {
        let scratch = try ScratchDirectory()
        let names = (0..<3000).map { String($0, radix: 36) }
        for name in names { #expect(FileManager.default.createFile(atPath: scratch.file(name), contents: nil)) }
        let listed = try Directory.entries(of: scratch.path)
        #expect(Set(listed.map { String(decoding: $0.name, as: UTF8.self) }) == Set(names))
    }

    @Test func freeSpaceIsMeasured() throws {
        let scratch = try ScratchDirectory()
        #expect(try DiskSpace.availableBytes(at: scratch.path) > 0)
        let error = #expect(throws: FileSystemError.self) {
            _ = try DiskSpace.availableBytes(at: scratch.path + "/none")
        }
        #expect(error?.call == "statvfs" && error?.isNotFound == true)
    }
}
