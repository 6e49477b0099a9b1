import FileSystem
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite(.timeLimit(.minutes(5))) struct FileStatusTests {
    @Test func reportsARegularFilesSizeModificationTimeInodeAndDevice() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("clip.m4s", Array(repeating: 7, count: 42))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000.25)], ofItemAtPath: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)

        let status = try FileStatus(path: path, followingSymlinks: false)
        #expect(status.kind == .regular)
        #expect(status.size == 42)
        #expect(status.modified == 1_700_000_000_250_000_000)
        #expect(status.inode == (attributes[.systemFileNumber] as? NSNumber)?.uint64Value)
        #expect(status.device == (attributes[.systemNumber] as? NSNumber)?.uint64Value)
    }

    @Test func lstatReportsTheSymlinkItselfAndStatItsTarget() throws {
        let scratch = try ScratchDirectory()
        let target = try scratch.write("target.webp", Array("RIFF".utf8))
        try scratch.link("link.webp", to: target)

        let link = try FileStatus(path: scratch.file("link.webp"), followingSymlinks: false)
        let followed = try FileStatus(path: scratch.file("link.webp"), followingSymlinks: true)
        #expect(link.kind == .symlink)
        #expect(followed == (try FileStatus(path: target, followingSymlinks: false)))
    }

    @Test func reportsDirectoriesAndFifosWithoutOpeningThem() throws {
        let scratch = try ScratchDirectory()
        #expect(mkfifo(scratch.file("pipe"), 0o600) == 0)
        #expect(try FileStatus(path: scratch.path, followingSymlinks: true).kind == .directory)
        // A FIFO with no writer would block an open(2); a status must not.
        #expect(try FileStatus(path: scratch.file("pipe"), followingSymlinks: true).kind == .fifo)
    }

    @Test func aMissingPathOrADanglingSymlinkThrowsTheCallThePathAndErrno() throws {
        let scratch = try ScratchDirectory()
        try scratch.link("dangling", to: scratch.file("gone"))
        let missing = scratch.file("missing")
        #expect(throws: FileSystemError("lstat", missing, code: ENOENT)) {
            try FileStatus(path: missing, followingSymlinks: false)
        }
        #expect(throws: FileSystemError("stat", scratch.file("dangling"), code: ENOENT)) {
            try FileStatus(path: scratch.file("dangling"), followingSymlinks: true)
        }
        #expect(try FileStatus(path: scratch.file("dangling"), followingSymlinks: false).kind == .symlink)
    }

    @Test func aFileBelowAFileIsNotADirectory() throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.write("poster.jpg", [0xFF])
        let error = try #require(throws: FileSystemError.self) {
            try FileStatus(path: file + "/x", followingSymlinks: true)
        }
        #expect(error.code == ENOTDIR)
        #expect(error.description.contains(file + "/x"))
    }
}
