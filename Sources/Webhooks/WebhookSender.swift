internal import AsyncHTTPClient
package import Catalog
internal import FileSystem
internal import Foundation
internal import NIOCore
internal import NIOHTTP1
internal import NIOPosix

/// Posts one delivery. The endpoint's host is resolved once, every address it gives is checked against the SSRF
/// policy (`NetworkAddress.isPublic`, unless the endpoint allows private addresses), and the connection goes to the
/// address that was checked (so a DNS answer that changes between check and connect cannot redirect it); TLS still
/// verifies the certificate against the host's name. Redirects are not followed: a 3xx is a failed attempt.
package struct WebhookSender: Sendable {
    /// One attempt's bound: connect, send and the answer's head.
    package var timeout: Duration

    package init(timeout: Duration = .seconds(10)) {
        self.timeout = timeout
    }

    package enum Result: Sendable, Equatable {
        case delivered(status: Int)
        /// Why the attempt failed, for the log and `reel webhook list`.
        case failed(String)
    }

    /// Signs with the wall clock (a receiver compares it with its own), whatever clock schedules the attempts.
    package func send(_ delivery: WebhookDelivery) async -> Result {
        let url: WebhookURL
        do { url = try WebhookURL(delivery.endpoint.url) } catch { return .failed("\(error)") }
        let address: NetworkAddress
        switch await Self.address(of: url.host, allowingPrivate: delivery.endpoint.allowsPrivateAddresses) {
        case let .success(found): address = found
        case let .failure(refusal): return .failed(refusal.message)
        }
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        configuration.dnsOverride = [url.host: address.description]
        configuration.timeout = HTTPClient.Configuration.Timeout(
            connect: Self.timeAmount(timeout), read: Self.timeAmount(timeout))
        configuration.connectionPool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: .seconds(1), concurrentHTTP1ConnectionsPerHostSoftLimit: 1)
        // A refused connection is this attempt's failure, at once: the back-off decides when to try again (by
        // default the pool would retry it until the timeout).
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        let result = await Self.post(
            delivery, to: url.text, with: client, timeout: timeout, now: Int64(Date().timeIntervalSince1970 * 1000))
        try? await client.shutdown()
        return result
    }

    static func post(
        _ delivery: WebhookDelivery, to url: String, with client: HTTPClient, timeout: Duration, now: Int64
    ) async -> Result {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Reel-Webhooks/1")
        request.headers.add(name: "Reel-Event-Id", value: delivery.eventID)
        request.headers.add(name: "Reel-Event-Type", value: delivery.kind.rawValue)
        request.headers.add(name: "Reel-Delivery-Attempt", value: String(delivery.attempt))
        request.headers.add(
            name: WebhookSignature.header,
            value: WebhookSignature.value(
                secrets: delivery.endpoint.signingSecrets(now: now), timestamp: now / 1000, body: delivery.body))
        request.body = .bytes(ByteBuffer(string: delivery.body))
        do {
            let response = try await client.execute(request, timeout: timeAmount(timeout))
            // The answer's body is not read for meaning; at most 64 KiB of it is drained.
            _ = try? await response.body.collect(upTo: 64 << 10)
            let status = Int(response.status.code)
            if (200..<300).contains(status) { return .delivered(status: status) }
            if (300..<400).contains(status) {
                return .failed("answered \(status) (redirects are not followed)")
            }
            return .failed("answered \(status)")
        } catch {
            return .failed("no answer: \(error)")
        }
    }

    /// A refused or unresolvable host.
    package struct Refusal: Error, Sendable, Equatable {
        package var message: String
    }

    /// The first address of `host`, once every address it resolves to is allowed.
    package static func address(
        of host: String, allowingPrivate: Bool
    ) async -> Swift.Result<NetworkAddress, Refusal> {
        let resolved: [[UInt8]]
        do {
            // getaddrinfo blocks: it runs on NIO's blocking pool, off the concurrency pool.
            resolved = try await NIOThreadPool.singleton.runIfActive { try HostAddresses.resolve(host) }
        } catch {
            return .failure(Refusal(message: "cannot resolve \(host): \(error)"))
        }
        let addresses = resolved.compactMap(NetworkAddress.init(bytes:))
        guard let first = addresses.first else {
            return .failure(Refusal(message: "\(host) has no address"))
        }
        if !allowingPrivate, let refused = addresses.first(where: { !$0.isPublic }) {
            return .failure(
                Refusal(
                    message:
                        "refused: \(host == refused.description ? host : "\(host) resolves to \(refused), which") "
                        + "is not a public address (reel webhook add --allow-private-addresses allows it)"))
        }
        return .success(first)
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}
