import Deadlines
import FileSystem
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a child process inherits: its three standard streams and nothing else, so a descriptor this process holds
/// without close-on-exec (a socket NIO accepted) does not stay open in it.
@Suite(.timeLimit(.minutes(5))) struct SubprocessTests {
    @Test func aDescriptorWithoutCloseOnExecIsNotInherited() async throws {
        let scratch = try ScratchDirectory()
        // A socket as NIO accepts them: no SOCK_CLOEXEC.
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 3)
        defer { close(socket) }
        #expect(fcntl(socket, F_GETFD) & FD_CLOEXEC == 0)
        let child = try Subprocess(
            ["/bin/sh", "-c", "if [ -e /proc/self/fd/\(socket) ]; then echo inherited; else echo closed; fi"],
            environment: [:], stdout: scratch.file("out"), stderr: scratch.file("err"))
        let ended = try await withDeadline(.seconds(60), "the child shell to exit") { await child.exit() }
        #expect(ended == .exited(0))
        #expect(try String(contentsOfFile: scratch.file("out"), encoding: .utf8) == "closed\n")
    }
}
