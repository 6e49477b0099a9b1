package import Foundation

/// Follows a job (`GET /v1/jobs/{id}`) until it is published, rejected or failed, waiting as the server's
/// `Retry-After` says (1 s, growing by half each time, when it says nothing), then finds the master playlist.
package struct JobPoller: Sendable {
    /// `GET /v1/jobs/{id}`'s body.
    package struct Job: Decodable, Sendable, Equatable {
        package var id: String
        package var kind: String?
        /// queued, processing (or running), published, rejected, failed.
        package var state: String
        package var progressPercent: Int?
        /// The machine-readable code (`too_large`, `duplicate`, ...).
        package var reason: String?
        package var error: String?
        package var mediaID: String?
        package var videoURL: String?

        enum CodingKeys: String, CodingKey {
            case id, kind, state, reason, error
            case progressPercent = "progress_percent"
            case mediaID = "media_id"
            case videoURL = "video_url"
        }
    }

    /// A published job, and its master playlist's absolute URL when it is a video.
    package struct Outcome: Sendable, Equatable {
        package var job: Job
        package var masterURL: URL?
    }

    package let server: URL
    package let transport: any HTTPTransport
    package let sleeper: any Sleeper
    package let backoff: RetryBackoff
    /// The wait when the server gives no `Retry-After`: starts here, grows by half each poll, up to `maxPollSeconds`.
    package let defaultPollSeconds: Double
    package let maxPollSeconds: Double
    /// The upload's token, sent when the published video is read: a private post's item answers only its uploader.
    package var token: String?

    package init(
        server: URL, transport: any HTTPTransport, sleeper: any Sleeper = TaskSleeper(),
        backoff: RetryBackoff = RetryBackoff(),
        defaultPollSeconds: Double = 1, maxPollSeconds: Double = 10, token: String? = nil
    ) {
        self.token = token
        self.server = server
        self.transport = transport
        self.sleeper = sleeper
        self.backoff = backoff
        self.defaultPollSeconds = defaultPollSeconds
        self.maxPollSeconds = maxPollSeconds
    }

    /// Polls `jobPath` (relative to the server, or absolute) until the job ends.
    /// - Parameter update: called with every job state read.
    /// - Throws: `UploadError`: `.rejected(reason)` for a rejected job, `.failed(reason)` for a failed one or a
    ///   malformed answer, `.unavailable` when the server stays unreachable, `.interrupted` when cancelled.
    package func poll(jobPath: String, update: @Sendable (Job) -> Void = { _ in }) async throws -> Outcome {
        guard let url = URL(string: jobPath, relativeTo: server)?.absoluteURL else {
            throw UploadError(.failed(code: "protocol_error"), "the job path \"\(jobPath)\" is not a URL")
        }
        var quietWait = defaultPollSeconds
        while true {
            let (job, response) = try await fetch(Job.self, from: url)
            update(job)
            switch job.state {
            case "published":
                return Outcome(job: job, masterURL: try await masterURL(of: job))
            case "rejected":
                throw UploadError(
                    .rejected(code: job.reason ?? "rejected"),
                    "job \(job.id) was rejected: \(job.reason ?? "rejected"): \(job.error ?? "no message")")
            case "failed":
                throw UploadError(
                    .failed(code: job.reason ?? "failed"),
                    "job \(job.id) failed: \(job.reason ?? "failed"): \(job.error ?? "no message")")
            default:
                let wait: Double
                if let retryAfter = RetryBackoff.parseRetryAfter(response.header("Retry-After")) {
                    wait = min(retryAfter, backoff.maxRetryAfterSeconds)
                } else {
                    wait = quietWait
                    quietWait = min(quietWait * 1.5, maxPollSeconds)
                }
                do { try await sleeper.sleep(seconds: wait) } catch {
                    throw UploadError(
                        .interrupted,
                        "interrupted while waiting for job \(job.id); the upload is complete, poll \(url.absoluteString)"
                    )
                }
            }
        }
    }

    /// The absolute master playlist URL of a published video (`GET` its `video_url`), nil for images.
    func masterURL(of job: Job) async throws -> URL? {
        guard let videoPath = job.videoURL, let videoURL = URL(string: videoPath, relativeTo: server)?.absoluteURL
        else { return nil }
        struct Video: Decodable {
            var masterURL: String?
            enum CodingKeys: String, CodingKey { case masterURL = "master_url" }
        }
        let (video, _) = try await fetch(
            Video.self, from: videoURL, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
        guard let master = video.masterURL else {
            throw UploadError(.failed(code: "protocol_error"), "GET \(videoURL.absoluteString) has no master_url")
        }
        return URL(string: master, relativeTo: server)?.absoluteURL
    }

    /// GETs JSON, retrying no answer, 429 and 5xx with `backoff`.
    func fetch<Body: Decodable>(
        _ type: Body.Type, from url: URL, headers: [String: String] = [:]
    ) async throws -> (Body, HTTPResponse) {
        let request = HTTPRequest(
            method: "GET", url: url, headers: headers.merging(["Accept": "application/json"]) { $1 })
        var failures = 0
        while true {
            if Task.isCancelled { throw UploadError(.interrupted, "interrupted while polling \(url.absoluteString)") }
            var retryAfter: Double?
            let cause: String
            do {
                let response = try await transport.send(request)
                switch response.status {
                case 200:
                    do { return (try JSONDecoder().decode(Body.self, from: Data(response.body)), response) } catch {
                        throw UploadError(
                            .failed(code: "protocol_error"),
                            "GET \(url.absoluteString) answered JSON that does not parse: \(error)")
                    }
                case 429, 500, 502, 503, 504:
                    retryAfter = RetryBackoff.parseRetryAfter(response.header("Retry-After"))
                    cause = "\(response.status)"
                default:
                    let api = response.apiError
                    throw UploadError(
                        .failed(code: api?.code ?? "http_\(response.status)"),
                        "GET \(url.absoluteString) answered \(response.status)\(api.map { " \($0.code): \($0.message)" } ?? "")"
                    )
                }
            } catch let error as UploadError {
                throw error
            } catch {
                if error is CancellationError {
                    throw UploadError(.interrupted, "interrupted while polling \(url.absoluteString)")
                }
                cause = "no answer (\(error))"
            }
            failures += 1
            guard failures <= backoff.maxAttempts else {
                throw UploadError(
                    .unavailable,
                    "GET \(url.absoluteString) failed \(failures) times in a row (last: \(cause)); the server at \(server.absoluteString) is unavailable"
                )
            }
            do { try await sleeper.sleep(seconds: backoff.delay(forAttempt: failures, retryAfter: retryAfter)) } catch {
                throw UploadError(.interrupted, "interrupted while polling \(url.absoluteString)")
            }
        }
    }
}
