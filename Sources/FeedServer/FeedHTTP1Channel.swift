internal import Catalog
internal import Hummingbird
internal import HummingbirdCore
internal import Logging
internal import Metrics
internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTPTypes
internal import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 child channel, set up as `HTTP1Channel` does, plus `FeedFastPathHandler` right after the
/// connection-state handler. `HTTP1Channel` only takes extra handlers before that handler, where a request answered
/// without the router would be invisible to the idle timeout and graceful shutdown.
///
/// With an in-process catalog, `FeedWireHandler` goes first in the pipeline and answers plain feed requests before
/// the decoder; it adds the connection-state handler when it hands a connection over.
///
/// Every connection is also held to `deadlines` (`RequestBytesMeter` at the socket end, `RequestDeadlineHandler`
/// right after the codec), and with a `cap`, a connection past it gets only `ConnectionRefusalHandler`.
struct FeedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let configuration: HTTP1Channel.Configuration
    /// nil: every feed request goes through the router (`--feed-order engaging`).
    let fastPath: FeedFastPath?
    /// nil: events go through the router (a server without `viewerEvents`).
    let events: EventsFastPath?
    let deadlines: RequestDeadlines
    /// `--max-connections`; nil takes every connection (the operations listener).
    let cap: ConnectionCap?
    /// Where the deadline handlers count timeouts.
    let metrics: (any MetricsFactory)?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            if let cap {
                guard cap.admit() else {
                    try pipeline.addHandler(ConnectionRefusalHandler())
                    return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
                }
                channel.closeFuture.whenComplete { _ in cap.release() }
            }
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = configuration.httpDecoder.maxHeaderFieldSize
            limits.maxHeaderListSize = configuration.httpDecoder.maxHeaderListSize
            limits.maxHeaderFieldCount = configuration.httpDecoder.maxHeaderFieldCount
            let deadline = RequestDeadlineHandler(deadlines: deadlines, factory: metrics, logger: logger)
            try pipeline.addHandler(RequestBytesMeter(reportingTo: deadline))
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits
            )
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(deadline)
            try pipeline.addHandlers(configuration.additionalChannelHandlers())
            let state = HTTPConnectionStateHandler(
                idleTimeout: configuration.idleTimeout.map { .init($0) }, logger: logger)
            if let fastPath, Self.answersOnWire(fastPath, limits: limits) {
                // The state handler joins on the wire handler's hand-over, having seen nothing before it.
                let handler = FeedFastPathHandler(feed: fastPath, events: events)
                try pipeline.addHandler(handler)
                try pipeline.addHandler(
                    FeedWireHandler(
                        fastPath: fastPath, idleTimeout: configuration.idleTimeout,
                        stateHandler: state, anchor: handler),
                    position: .first)
            } else {
                try pipeline.addHandler(state)
                if fastPath != nil || events != nil {
                    try pipeline.addHandler(FeedFastPathHandler(feed: fastPath, events: events))
                }
            }
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    /// Whether `FeedWireHandler` may answer before the decoder: an engine that reads pages in-process, and decoder
    /// limits that would take any request it accepts.
    static func answersOnWire(_ fastPath: FeedFastPath, limits: NIOHTTPDecoderLimitConfiguration) -> Bool {
        fastPath.server.store.synchronousFeed?.readsPages == true
            && limits.maxHeaderFieldSize >= FeedWireRequest.maximumLength
            && limits.maxHeaderListSize >= FeedWireRequest.maximumLength
            && limits.maxHeaderFieldCount >= FeedWireRequest.maximumFields
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}
