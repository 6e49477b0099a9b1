import FileSystem
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite(.timeLimit(.minutes(5))) struct CanonicalPathTests {
    @Test func resolvesSymlinksDotsAndRepeatedSlashes() throws {
        let scratch = try ScratchDirectory()
        let target = try scratch.write("library/videos/v1/master.m3u8", Array("#EXTM3U\n".utf8))
        try scratch.write("library/images/i1.webp", [])  // `images/..` resolves only if images/ exists
        try scratch.link("library/shortcut", to: scratch.file("library/videos"))

        let canonical = try CanonicalPath(resolving: scratch.path + "/library/./images/../shortcut//v1/master.m3u8")
        #expect(canonical.path == target)
        #expect(canonical.description == target)
    }

    @Test func aMissingComponentThrowsRealpathWithThePath() throws {
        let scratch = try ScratchDirectory()
        let missing = scratch.file("library/videos/none.m4s")
        #expect(throws: FileSystemError("realpath", missing, code: ENOENT)) { try CanonicalPath(resolving: missing) }
    }

    @Test func aSymlinkLoopThrowsELOOP() throws {
        let scratch = try ScratchDirectory()
        try scratch.link("a", to: scratch.file("b"))
        try scratch.link("b", to: scratch.file("a"))
        #expect(throws: FileSystemError("realpath", scratch.file("a"), code: ELOOP)) {
            try CanonicalPath(resolving: scratch.file("a"))
        }
    }

    @Test func relativePathIsOnlyForPathsStrictlyInsideTheRoot() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("library/videos/v1/master.m3u8", [])
        try scratch.write("library-old/videos/v1/master.m3u8", [])
        let root = try CanonicalPath(resolving: scratch.file("library"))

        let inside = try CanonicalPath(resolving: scratch.file("library/videos/v1/master.m3u8"))
        #expect(inside.relativePath(under: root) == "videos/v1/master.m3u8")
        #expect(root.relativePath(under: root) == nil)
        // A sibling whose name starts with the root's is outside it.
        #expect(
            try CanonicalPath(resolving: scratch.file("library-old/videos/v1/master.m3u8")).relativePath(under: root)
                == nil)
        #expect(try CanonicalPath(resolving: scratch.path).relativePath(under: root) == nil)
        #expect(inside.relativePath(under: try CanonicalPath(resolving: "/")) == String(inside.path.dropFirst()))
    }

    @Test func canonicallyEquivalentSpellingsAreDifferentFolders() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("caf\u{E9}/videos/v1", [])
        try scratch.write("cafe\u{301}/videos/v1", [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).count == 2)
        let root = try CanonicalPath(resolving: scratch.file("caf\u{E9}"))

        // Equal as Swift strings, yet another folder on disk: not inside the root.
        #expect(try CanonicalPath(resolving: scratch.file("cafe\u{301}/videos/v1")).relativePath(under: root) == nil)
        #expect(
            try CanonicalPath(resolving: scratch.file("caf\u{E9}/videos/v1")).relativePath(under: root) == "videos/v1")
    }
}
