import FileSystem
import Foundation
import Synchronization
import UploadClient

/// An in-memory tus server behind `HTTPTransport`, following docs/uploads.md, with faults a test can queue.
/// Every request is recorded, so tests assert on what the client sent.
final class TusTestServer: HTTPTransport, Sendable {
    enum Fault {
        /// Answer the next matching request with this response instead of handling it.
        case respond(HTTPResponse)
        /// Store the PATCH's bytes, then fail as if the connection dropped before the answer.
        case dropAfterStoring
        /// Fail before the server sees the request (connection refused).
        case refuse
        /// Throw CancellationError, as when the user presses Ctrl-C mid-request.
        case cancel
    }

    struct Upload {
        var length: Int64
        var metadata: String
        var bytes: [UInt8] = []
    }

    /// What requests change and tests set; a request is handled whole under the Mutex.
    private struct State {
        var uploads: [String: Upload] = [:]
        var requests: [HTTPRequest] = []
        var faults: [(method: String, fault: Fault)] = []
        var nextID = 1
        /// Answers for `GET /v1/jobs/...`, in order (the last one repeats).
        var jobAnswers: [HTTPResponse] = []
        var namesJobWhenFinished = false
    }

    private let state = Mutex(State())
    let token: String
    let jobID = "job-1"
    let masterPath = "/media/videos/v1/master.m3u8"

    init(token: String = "secret") { self.token = token }

    /// Queues a fault for the next request with this method ("*" for any).
    func inject(_ fault: Fault, on method: String) { state.withLock { $0.faults.append((method, fault)) } }

    var recorded: [HTTPRequest] { state.withLock { $0.requests } }
    func upload(_ id: String) -> Upload? { state.withLock { $0.uploads[id] } }
    func setJobAnswers(_ answers: [HTTPResponse]) { state.withLock { $0.jobAnswers = answers } }
    func forgetAllUploads() { state.withLock { $0.uploads.removeAll() } }

    /// Names the job (`Reel-Job`) on HEAD and on `409 upload_finished` for a finished upload.
    var namesJobWhenFinished: Bool {
        get { state.withLock { $0.namesJobWhenFinished } }
        set { state.withLock { $0.namesJobWhenFinished = newValue } }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try state.withLock { state in
            state.requests.append(request)
            if let index = state.faults.firstIndex(where: { $0.method == request.method || $0.method == "*" }) {
                let fault = state.faults.remove(at: index).fault
                switch fault {
                case let .respond(response): return response
                case .refuse: throw ConnectionFailed(request: request.method)
                case .cancel: throw CancellationError()
                case .dropAfterStoring:
                    _ = handle(request, &state)
                    throw ConnectionFailed(request: request.method)
                }
            }
            return handle(request, &state)
        }
    }

    private func handle(_ request: HTTPRequest, _ state: inout State) -> HTTPResponse {
        if request.method == "GET", request.url.path.hasPrefix("/v1/jobs/") {
            guard let answer = state.jobAnswers.first else { return error(404, "not_found") }
            if state.jobAnswers.count > 1 { state.jobAnswers.removeFirst() }
            return answer
        }
        if request.method == "GET", request.url.path.hasPrefix("/v1/videos/") {
            return HTTPResponse(status: 200, body: Array(#"{"id":"v1","master_url":"\#(masterPath)"}"#.utf8))
        }
        guard request.header("Tus-Resumable") == "1.0.0" else { return error(412, "unsupported_tus_version") }
        guard request.header("Authorization") == "Bearer \(token)" else { return error(401, "unauthorized") }
        let path = request.url.path
        if request.method == "POST", path == "/v1/uploads" {
            guard let length = request.header("Upload-Length").flatMap({ Int64($0) }), length >= 0 else {
                return error(400, "invalid_upload_length")
            }
            let id = "u\(state.nextID)"
            state.nextID += 1
            state.uploads[id] = Upload(length: length, metadata: request.header("Upload-Metadata") ?? "")
            return HTTPResponse(
                status: 201, headers: ["Location": "/v1/uploads/\(id)", "Upload-Offset": "0", "Tus-Resumable": "1.0.0"])
        }
        guard path.hasPrefix("/v1/uploads/") else { return error(404, "not_found") }
        let id = String(path.dropFirst("/v1/uploads/".count))
        guard var upload = state.uploads[id] else { return error(404, "not_found") }
        switch request.method {
        case "HEAD":
            var headers = [
                "Upload-Offset": String(upload.bytes.count), "Upload-Length": String(upload.length),
                "Tus-Resumable": "1.0.0",
            ]
            if state.namesJobWhenFinished, Int64(upload.bytes.count) == upload.length {
                headers["Reel-Job"] = "/v1/jobs/\(jobID)"
            }
            return HTTPResponse(status: 200, headers: headers)
        case "PATCH":
            guard request.header("Content-Type") == "application/offset+octet-stream" else {
                return error(415, "invalid_content_type")
            }
            if upload.bytes.count == Int(upload.length) {
                var finished = error(409, "upload_finished")
                if state.namesJobWhenFinished { finished.headers["Reel-Job"] = "/v1/jobs/\(jobID)" }
                return finished
            }
            guard request.header("Upload-Offset") == String(upload.bytes.count) else {
                return error(409, "offset_mismatch")
            }
            if let checksum = request.header("Upload-Checksum") {
                let expected = "sha256 " + Data(try! ContentHash.digest(of: request.body)).base64EncodedString()
                guard checksum == expected else { return error(460, "checksum_mismatch") }
            }
            guard Int64(upload.bytes.count + request.body.count) <= upload.length else {
                return error(400, "exceeds_upload_length")
            }
            upload.bytes += request.body
            state.uploads[id] = upload
            var headers = ["Upload-Offset": String(upload.bytes.count), "Tus-Resumable": "1.0.0"]
            if Int64(upload.bytes.count) == upload.length { headers["Reel-Job"] = "/v1/jobs/\(jobID)" }
            return HTTPResponse(status: 204, headers: headers)
        default:
            return error(405, "method_not_allowed")
        }
    }

    func error(_ status: Int, _ code: String) -> HTTPResponse {
        Self.error(status, code, "test server: \(code)")
    }

    static func error(_ status: Int, _ code: String, _ message: String, headers: [String: String] = [:]) -> HTTPResponse
    {
        HTTPResponse(
            status: status, headers: headers,
            body: Array(#"{"error":{"code":"\#(code)","message":"\#(message)"}}"#.utf8))
    }
}

/// A sleeper that returns at once and remembers every delay it was asked for.
final class RecordingSleeper: Sleeper, Sendable {
    private let recorded = Mutex<[Double]>([])
    var delays: [Double] { recorded.withLock { $0 } }

    func sleep(seconds: Double) async throws {
        recorded.withLock { $0.append(seconds) }
        try Task.checkCancellation()
    }
}

/// Answers requests from a script, in order; anything past the script is a test failure.
final class ScriptedTransport: HTTPTransport, Sendable {
    enum Step {
        case answer(HTTPResponse)
        case fail
    }

    private struct State {
        var steps: [Step]
        var requests: [HTTPRequest] = []
    }

    private let state: Mutex<State>

    init(_ steps: [Step]) { state = Mutex(State(steps: steps)) }

    var recorded: [HTTPRequest] { state.withLock { $0.requests } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let step: Step? = state.withLock { state in
            state.requests.append(request)
            return state.steps.isEmpty ? nil : state.steps.removeFirst()
        }
        switch step {
        case let .answer(response): return response
        case .fail: throw ConnectionFailed(request: request.method)
        case nil: throw ScriptExhausted(request: "\(request.method) \(request.url.absoluteString)")
        }
    }
}

struct ScriptExhausted: Error, CustomStringConvertible {
    var request: String
    var description: String { "the script has no answer for \(request)" }
}

/// Collects events from a flow run.
final class EventLog: Sendable {
    private let list = Mutex<[UploadEvent]>([])
    var events: [UploadEvent] { list.withLock { $0 } }
    func append(_ event: UploadEvent) { list.withLock { $0.append(event) } }
}

func bytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
}

/// What a transport throws when no answer arrived (refused, reset).
struct ConnectionFailed: Error {
    var request: String
}
