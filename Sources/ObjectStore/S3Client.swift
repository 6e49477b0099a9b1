package import AsyncHTTPClient
internal import Foundation
package import NIOCore
package import NIOHTTP1
internal import NIOPosix
package import SigV4

/// Reel's own S3 client on async-http-client: each request signed with SigV4, retried by `S3RetryPolicy`, bounded by
/// a deadline per attempt, and failing with an `ObjectStoreError` that names the call and the key. The object
/// operations are in the extensions (`S3Client+Objects`, `S3Client+Multipart`, `S3Client+Files`).
///
/// Call `shutdown()` before the last reference goes: async-http-client requires it.
package final class S3Client: Sendable {
    package let location: S3Location
    let signer: SigV4Signer
    let http: HTTPClient
    let retry: S3RetryPolicy
    let attemptTimeout: TimeAmount
    let now: @Sendable () -> Int64

    /// - Parameters:
    ///   - connectTimeout: how long an attempt waits for a connection. async-http-client keeps retrying a refused
    ///     connection until then, so this is also how long a store that is down holds each attempt.
    ///   - attemptTimeout: the bound on one attempt, from sending to the last byte of a collected answer.
    ///   - now: Unix seconds, for the signature's date.
    package init(
        location: S3Location, credentials: SigV4Credentials, retry: S3RetryPolicy = .standard,
        connectTimeout: Duration = .seconds(3), attemptTimeout: Duration = .seconds(120),
        now: @escaping @Sendable () -> Int64 = S3Client.wallClock
    ) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        configuration.timeout = HTTPClient.Configuration.Timeout(
            connect: Self.timeAmount(connectTimeout), read: .seconds(60))
        http = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        self.location = location
        signer = SigV4Signer(credentials: credentials, region: location.region)
        self.retry = retry
        self.attemptTimeout = Self.timeAmount(attemptTimeout)
        self.now = now
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Unix seconds from the system clock.
    package static let wallClock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    /// Closes the connections.
    package func shutdown() async throws { try await http.shutdown() }

    /// One request as the operations describe it; `send` signs and sends it, once per attempt.
    struct Call: Sendable {
        var method: HTTPMethod
        /// The full key (prefix included), or nil for a request on the bucket.
        var key: String?
        var query: [(name: String, value: String)] = []
        /// Sent and signed.
        var headers: [(name: String, value: String)] = []
        var body: ByteBuffer?
        /// For messages: the operation and the key.
        var what: String

        init(
            _ method: HTTPMethod, key: String?, query: [(name: String, value: String)] = [],
            headers: [(name: String, value: String)] = [], body: ByteBuffer? = nil, what: String
        ) {
            self.method = method
            self.key = key
            self.query = query
            self.headers = headers
            self.body = body
            self.what = what
        }
    }

    /// A 2xx or 304 answer whose body has been read whole.
    struct Answer: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: ByteBuffer
    }

    /// Sends `call` and reads its answer's body whole, up to `limit` bytes.
    func send(_ call: Call, collectingUpTo limit: Int = 1 << 20) async throws -> Answer {
        let (response, attempts) = try await respond(call)
        let body = try await S3Download.collect(
            response.body, upTo: limit, what: "\(call.what) (attempt \(attempts))")
        return Answer(status: Int(response.status.code), headers: response.headers, body: body)
    }

    /// Sends `call` until an attempt answers 2xx or 304, or a refusal that another attempt would not change. The
    /// answer's body is left to the caller to read.
    /// - Throws: `ObjectStoreError` classified from the status and S3's error code; `CancellationError`.
    func respond(_ call: Call) async throws -> (HTTPClientResponse, attempts: Int) {
        let payloadHash =
            call.body.map { body in body.withUnsafeReadableBytes { SigV4Signer.payloadHash($0) } }
            ?? SigV4Signer.emptyPayloadHash
        var attempt = 1
        while true {
            try Task.checkCancellation()
            let failure: ObjectStoreError
            let retryable: Bool
            do {
                let response = try await http.execute(
                    try request(for: call, payloadHash: payloadHash), timeout: attemptTimeout)
                let status = Int(response.status.code)
                if (200..<300).contains(status) || status == 304 { return (response, attempt) }
                let text = (try? await response.body.collect(upTo: 64 << 10)).map { String(buffer: $0) } ?? ""
                let code = S3XML.value("Code", in: text[...])
                failure = Self.classify(
                    status: status, code: code, message: S3XML.value("Message", in: text[...]), call)
                retryable = S3RetryPolicy.isRetryable(status: status, code: code)
            } catch let error as ObjectStoreError {
                throw error
            } catch {
                if Task.isCancelled { throw CancellationError() }
                failure = ObjectStoreError(
                    .unavailable, "\(call.what): no answer from \(location.endpoint.description): \(error)")
                retryable = true
            }
            guard retryable, attempt < retry.maxAttempts else {
                guard retryable else { throw failure }
                throw ObjectStoreError(
                    .unavailable, "\(failure.description) (gave up after \(attempt) attempts)", status: failure.status)
            }
            let seconds = retry.delay(beforeRetry: attempt, fraction: Double.random(in: 0..<1))
            try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
            attempt += 1
        }
    }

    /// The signed request for one attempt (the date is this attempt's).
    func request(for call: Call, payloadHash: String) throws -> HTTPClientRequest {
        let host = location.endpoint.authority(prefixedWith: location.pathStyle ? nil : location.bucket)
        var path = location.pathStyle ? "/" + location.bucket : ""
        if let key = call.key { path += "/" + key } else if path.isEmpty { path = "/" }
        let signing = SigV4Request(
            method: call.method.rawValue, path: path, query: call.query, headers: [("host", host)] + call.headers)
        let signed = try signer.signedHeaders(for: signing, payloadHash: payloadHash, date: AmzDate(unixSeconds: now()))
        let query = signing.encodedQuery
        var request = HTTPClientRequest(
            url: location.endpoint.scheme + "://" + host + signing.encodedPath + (query.isEmpty ? "" : "?" + query))
        request.method = call.method
        for (name, value) in signing.headers + signed { request.headers.add(name: name, value: value) }
        if let body = call.body { request.body = .bytes(body) }
        return request
    }

    /// The error for a refusal: its reason from the status (and S3's code), its message naming the call.
    static func classify(status: Int, code: String?, message: String?, _ call: Call) -> ObjectStoreError {
        let said = [code, message].compactMap { $0 }.joined(separator: ": ")
        let text = "\(call.what): \(status)\(said.isEmpty ? "" : " " + said)"
        let reason: ObjectStoreError.Reason =
            switch status {
            case 404: .notFound
            case 412: .preconditionFailed
            case 401, 403: .denied
            case _ where S3RetryPolicy.isRetryable(status: status, code: code): .unavailable
            default: .refused
            }
        return ObjectStoreError(reason, text, status: status)
    }

    /// The full key of `key` (the location's prefix added), for requests.
    func fullKey(_ key: ObjectKey) -> String { location.fullKey(key) }

    /// `s3://bucket/full-key`, for messages.
    func name(_ key: ObjectKey) -> String { "s3://\(location.bucket)/\(fullKey(key))" }
}
