import MediaModel
import MediaStore
import NIOCore
import TestTraits
import Testing

/// What every uploads engine does the same way: the directory and S3 (SeaweedFS, `weed mini`). The sizes cross S3's
/// 5 MiB parts, so a request that dies mid-part, or past a part it already sent, is covered on both.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ResumableUploadsConformanceTests {
    static let length = 12_000_000

    /// `bytes` appended in 64 KiB pieces from `offset`, then made durable; `acknowledge` stands for the catalog's
    /// answer (without it, the state is as after a crash right after `finish`).
    static func write(
        _ uploads: any ResumableUploads, id: String, _ bytes: ArraySlice<UInt8>, acknowledge: Bool = true
    ) async throws {
        let writer = try await uploads.writer(id: id, offset: Int64(bytes.startIndex))
        #expect(writer.start == Int64(bytes.startIndex))
        for start in stride(from: bytes.startIndex, to: bytes.endIndex, by: 64 << 10) {
            try await writer.append(ByteBuffer(bytes: bytes[start..<min(start + (64 << 10), bytes.endIndex)]))
        }
        try await writer.finish(at: Int64(bytes.endIndex), complete: bytes.endIndex == length)
        if acknowledge { await writer.acknowledged() }
    }

    /// Appends `bytes` from `offset` and stops there, finishing nothing: a server killed mid-request.
    static func cutShort(_ uploads: any ResumableUploads, id: String, _ bytes: ArraySlice<UInt8>) async throws {
        let writer = try await uploads.writer(id: id, offset: Int64(bytes.startIndex))
        try await writer.append(ByteBuffer(bytes: bytes))
    }

    static func isNotFound(_ error: any Error) -> Bool {
        if case .notFound = error as? MediaStoreError { return true }
        return false
    }

    @Test(arguments: Engine.allCases) func bytesWrittenOverSeveralRequestsBecomeTheJobsOriginal(
        engine: Engine
    )
        async throws
    {
        try await engine.withUploads { uploads, probe in
            let id = LibraryLayout.newID()
            let bytes = patternBytes(Self.length)
            try await uploads.begin(id: id)
            try await Self.write(uploads, id: id, bytes[..<3_000_000])
            try await Self.write(uploads, id: id, bytes[3_000_000..<8_000_000])
            #expect(try await probe.original(id) == nil, "no original before the last byte")
            try await Self.write(uploads, id: id, bytes[8_000_000...])
            try await uploads.complete(id: id, length: Int64(Self.length))
            #expect(try await probe.original(id) == bytes, "the original is the uploaded bytes, in order")
            #expect(try await probe.leftovers().isEmpty)
        }
    }

    @Test(arguments: Engine.allCases) func aResumedUploadTrustsNoBytePastTheAcknowledgedOffset(
        engine: Engine
    )
        async throws
    {
        try await engine.withUploads { uploads, probe in
            let id = LibraryLayout.newID()
            let bytes = patternBytes(Self.length)
            let wrong = patternBytes(Self.length, seed: 7)
            try await uploads.begin(id: id)
            try await Self.write(uploads, id: id, bytes[..<3_000_000])
            // Killed mid-request, past a part it had sent; then a request made durable but never acknowledged.
            try await Self.cutShort(uploads, id: id, wrong[3_000_000..<9_000_000])
            try await Self.write(uploads, id: id, wrong[3_000_000..<7_000_000], acknowledge: false)
            let resumed = try await uploads.writer(id: id, offset: 3_000_000)
            #expect(try await resumed.acknowledgedPrefix(512) == Array(bytes[..<512]))
            try await Self.write(uploads, id: id, bytes[3_000_000...])
            try await uploads.complete(id: id, length: Int64(Self.length))
            #expect(try await probe.original(id) == bytes, "only acknowledged bytes and the resumed ones")
            #expect(try await probe.leftovers().isEmpty)
        }
    }

    @Test(arguments: Engine.allCases) func anAbandonedRequestLikeAChecksumMismatchAcknowledgesNothing(
        engine: Engine
    )
        async throws
    {
        try await engine.withUploads { uploads, probe in
            let id = LibraryLayout.newID()
            let bytes = patternBytes(Self.length)
            let wrong = patternBytes(Self.length, seed: 3)
            try await uploads.begin(id: id)
            try await Self.write(uploads, id: id, bytes[..<300])
            let refused = try await uploads.writer(id: id, offset: 300)
            try await refused.append(ByteBuffer(bytes: wrong[300..<6_000_000]))
            try await refused.abandon()
            let retry = try await uploads.writer(id: id, offset: 300)
            #expect(try await retry.acknowledgedPrefix(512) == Array(bytes[..<300]), "at most the bytes it has")
            try await Self.write(uploads, id: id, bytes[300...])
            try await uploads.complete(id: id, length: Int64(Self.length))
            #expect(try await probe.original(id) == bytes, "the abandoned request's bytes were written over")
        }
    }

    @Test(arguments: Engine.allCases) func completionRunsAgainAfterACrashAndChangesNothing(engine: Engine) async throws
    {
        try await engine.withUploads { uploads, probe in
            let id = LibraryLayout.newID()
            let bytes = patternBytes(Self.length)
            try await uploads.begin(id: id)
            try await Self.write(uploads, id: id, bytes[..<6_000_000])
            try await Self.write(uploads, id: id, bytes[6_000_000...])
            try await uploads.complete(id: id, length: Int64(Self.length))
            // The catalog never heard: the next server completes it again.
            try await uploads.complete(id: id, length: Int64(Self.length))
            #expect(try await probe.original(id) == bytes)
            #expect(try await probe.leftovers().isEmpty)
        }
    }

    @Test(arguments: Engine.allCases) func discardRemovesEverythingAndMayRunTwice(engine: Engine) async throws {
        try await engine.withUploads { uploads, probe in
            let id = LibraryLayout.newID()
            let bytes = patternBytes(Self.length)
            try await uploads.begin(id: id)
            try await Self.write(uploads, id: id, bytes[..<6_000_000])
            try await Self.cutShort(uploads, id: id, bytes[6_000_000..<7_000_000])
            try await uploads.discard(id: id)
            #expect(try await probe.leftovers().isEmpty)
            #expect(try await probe.original(id) == nil)
            let gone = await #expect(throws: MediaStoreError.self) {
                _ = try await uploads.writer(id: id, offset: 6_000_000)
            }
            #expect(gone.map(Self.isNotFound) == true, "\(String(describing: gone))")
            try await uploads.discard(id: id)
            try await uploads.discard(id: LibraryLayout.newID())
            #expect(try await probe.leftovers().isEmpty, "asking for a writer left nothing behind")
        }
    }

    @Test(arguments: Engine.allCases) func aWriterPastTheStoredBytesIsNotFound(engine: Engine) async throws {
        try await engine.withUploads { uploads, _ in
            let id = LibraryLayout.newID()
            try await uploads.begin(id: id)
            try await Self.write(uploads, id: id, patternBytes(Self.length)[..<1_000])
            let missing = await #expect(throws: MediaStoreError.self) {
                _ = try await uploads.writer(id: id, offset: 2_000)
            }
            #expect(missing.map(Self.isNotFound) == true, "\(String(describing: missing))")
            try await uploads.discard(id: id)
        }
    }
}
