package import Foundation
internal import Synchronization

#if canImport(FoundationNetworking)
internal import FoundationNetworking
#endif

/// `HTTPTransport` over Foundation's `URLSession` (libcurl on Linux). One session per transport, no caching,
/// no cookies; `timeout` bounds each request.
/// `@unchecked Sendable`: immutable after init, and `URLSession` is thread-safe (Linux's is not marked `Sendable`).
package final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    private let session: URLSession
    private let timeout: TimeInterval

    package init(timeout: TimeInterval = 60) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    deinit { session.finishTasksAndInvalidate() }

    /// - Throws: `URLError` when the request failed; `CancellationError` when the calling task was cancelled.
    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let error {
                        let cancelled = (error as? URLError)?.code == .cancelled
                        continuation.resume(throwing: cancelled ? CancellationError() : ConnectionError(error))
                        return
                    }
                    guard let http = response as? HTTPURLResponse else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                        return
                    }
                    var headers: [String: String] = [:]
                    for (name, value) in http.allHeaderFields {
                        if let name = name as? String, let value = value as? String { headers[name] = value }
                    }
                    continuation.resume(
                        returning: HTTPResponse(status: http.statusCode, headers: headers, body: Array(data ?? Data())))
                }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// Holds the running data task so a cancellation arriving from another thread can cancel it.
private final class TaskBox: Sendable {
    private struct State {
        var task: URLSessionDataTask?
        var isCancelled = false
    }
    private let state = Mutex(State())

    func set(_ task: URLSessionDataTask) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.isCancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }
}

/// A request that got no answer, described in one line (libcurl's text, e.g. "Failed to connect to host port 80").
struct ConnectionError: Error, CustomStringConvertible {
    let description: String

    init(_ error: any Error) {
        let nsError = error as NSError
        let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError
        let text =
            nsError.userInfo[NSLocalizedDescriptionKey] as? String
            ?? underlying?.userInfo[NSLocalizedDescriptionKey] as? String
        description = "\(nsError.domain) \(nsError.code)" + (text.map { ": " + $0 } ?? "")
    }
}
