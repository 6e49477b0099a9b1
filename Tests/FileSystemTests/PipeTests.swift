import FileSystem
import Testing

/// The pipe the job server reports on: the worker waits on it instead of sleeping between looks.
@Suite(.timeLimit(.minutes(5))) struct PipeTests {
    @Test func waitingWithNothingWrittenTimesOutAndReadsNothing() throws {
        let (read, write) = try Pipe.make()
        #expect(!read.waitReadable(timeout: 0.01))
        #expect(try read.read(waiting: false) == nil)
        _ = write
    }

    @Test func aWrittenReportWakesTheWaiterAndStaysToBeRead() throws {
        let (read, write) = try Pipe.make()
        try write.write(Array("ended 42 0\n".utf8))
        #expect(read.waitReadable(timeout: 10))
        // Waiting does not consume: the reader still gets the whole line.
        #expect(read.waitReadable(timeout: 10))
        #expect(try read.read(waiting: false) == Array("ended 42 0\n".utf8))
        #expect(!read.waitReadable(timeout: 0))
    }

    @Test func aClosedWriterWakesTheWaiter() throws {
        var pipe: (read: Pipe.ReadEnd, write: Pipe.WriteEnd)? = try Pipe.make()
        let read = pipe!.read
        pipe = nil  // closes the write end
        #expect(read.waitReadable(timeout: 10))
        #expect(try read.read(waiting: false) == [])
    }
}
