/// A real viewing session as the simulator replays it (`reel simulate --replay`): the videos watched in order, how
/// long the viewer stayed on each and what the page measured there, and the link as its fetches measured it.
public struct MeasuredSession: Sendable, Equatable {
    public struct View: Sendable, Equatable {
        /// The video's index in the replay's catalog.
        public var video: Int
        /// How long the viewer stayed on it: startup, playing and stalls (the script's watch step).
        public var dwellMilliseconds: Int
        public var startupMilliseconds: Int
        public var stalls: Int

        public init(video: Int, dwellMilliseconds: Int, startupMilliseconds: Int, stalls: Int) {
            self.video = video
            self.dwellMilliseconds = dwellMilliseconds
            self.startupMilliseconds = startupMilliseconds
            self.stalls = stalls
        }
    }

    public var name: String
    public var views: [View]
    public var network: NetworkTrace
    /// The round trip its fetches showed, which the model adds to each request; nil keeps the model's own.
    public var roundTripMilliseconds: Int?

    public init(name: String, views: [View], network: NetworkTrace, roundTripMilliseconds: Int? = nil) {
        self.name = name
        self.views = views
        self.network = network
        self.roundTripMilliseconds = roundTripMilliseconds
    }
}
