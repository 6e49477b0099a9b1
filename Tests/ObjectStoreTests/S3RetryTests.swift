import Foundation
import MediaFixtures
import NIOCore
import ObjectStore
import SigV4
import TestTraits
import Testing

/// Retries against a store that answers as told: a small Python server (never Reel's code) that replies to each
/// request with the next of a list of statuses and S3 error codes, and counts what it was sent.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct S3RetryTests {
    static let server = #"""
        import http.server, sys
        answers = [a.split(":", 1) for a in sys.argv[2].split(",")]
        count = 0
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_PUT(self):
                global count
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                status, code = answers[min(count, len(answers) - 1)]
                count += 1
                with open(sys.argv[3], "w") as f: f.write(str(count))
                body = b"" if code == "-" else f"<Error><Code>{code}</Code><Message>told to</Message></Error>".encode()
                self.send_response(int(status))
                self.send_header("Content-Length", str(len(body)))
                if status == "200": self.send_header("ETag", '"e"')
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *args): pass
        http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
        """#

    /// Runs the server answering `answers` (`status:code`, `-` for no body), PUTs once, and returns the result and how
    /// many requests the server saw.
    func put(answering answers: String) async throws -> (Result<String, any Error>, Int) {
        let directory = try TemporaryDirectory()
        let script = try directory.write("server.py", text: Self.server)
        let port = try FreePort.pick()
        let server = try ChildProcess([
            "/usr/bin/env", "python3", script, String(port), answers, directory.file("count"),
        ])
        defer { server.signal(SIGKILL) }
        // Python starts in well under a second alone; beside a loaded suite it once took over 20 s.
        let waited = await ChildProcess.suspendUntil(seconds: 120) {
            (try? FreePort.isFree(port, host: "127.0.0.1")) == false
        }
        #expect(waited, "the stand-in store did not listen on \(port) within 120 s")
        let client = S3Client(
            location: try S3Location(parsing: "s3://bucket?endpoint=http://127.0.0.1:\(port)"),
            credentials: SigV4Credentials(accessKeyID: "AKID", secretAccessKey: "secret"),
            retry: S3RetryPolicy(maxAttempts: 4, baseSeconds: 0.05, capSeconds: 0.2))
        let result: Result<String, any Error>
        do {
            result = .success(
                try await client.put(
                    try ObjectKey("k"), bytes: ByteBuffer(string: "x"), contentType: "text/plain",
                    cacheControl: "no-store"))
        } catch {
            result = .failure(error)
        }
        try await client.shutdown()
        let count = Int((try? String(contentsOfFile: directory.file("count"), encoding: .utf8)) ?? "") ?? 0
        return (result, count)
    }

    @Test func slowDownAndServerErrorsAreRetriedUntilTheStoreAccepts() async throws {
        let (result, count) = try await put(answering: "503:SlowDown,500:InternalError,200:-")
        #expect((try? result.get()) == "\"e\"")
        #expect(count == 3)
    }

    @Test func aRefusalIsNotRetriedAndPersistentErrorsStopAtTheLimit() async throws {
        let (refused, once) = try await put(answering: "400:InvalidArgument")
        #expect(once == 1)
        #expect(throws: ObjectStoreError.self) { try refused.get() }
        #expect((refused.failure as? ObjectStoreError)?.description.contains("400 InvalidArgument: told to") == true)

        let (away, four) = try await put(answering: "503:SlowDown")
        #expect(four == 4)
        let error = try #require(away.failure as? ObjectStoreError)
        #expect(error.reason == .unavailable && error.description.contains("gave up after 4 attempts"))
    }
}

extension Result {
    var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}
