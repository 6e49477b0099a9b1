/// The phone client the simulator models: player pool, prefetch window, paging, network class and battery.
public struct ClientConfiguration: Sendable, Equatable {
    /// Reusable players (3–5).
    public var players = 3
    /// Prefetch window around the current item.
    public var ahead = 2
    public var behind = 1
    /// Forward buffer each neighbour is preloaded to, and the current item's.
    public var neighbourBufferMilliseconds = 3000
    public var currentBufferMilliseconds = 10_000
    /// `aware`'s per-neighbour caps and cautious rungs; nil keeps the fixed window.
    public var retentionPrefetch: RetentionPrefetch?
    public var pageSize = 10
    /// The next page is requested when the user is this many items from the end of what is loaded.
    public var pageTriggerDistance = 3
    /// Items in the whole feed (catalog videos repeat).
    public var feedLength = 100
    public var requestRTTMilliseconds = 80
    /// On a memory warning, buffers outside current ± this are dropped.
    public var memoryKeepRadius = 2
    public var networkClass: NetworkClass?
    public var lowBattery = false

    public init() {}

    public enum NetworkClass: String, Sendable, CaseIterable {
        case cellular3G = "3g", cellular4G = "4g", cellular5G = "5g", wifi

        /// The design's rung per class: 3G → lowest, 4G → middle, 5G/Wi-Fi → top.
        public var rungCap: Int {
            switch self {
            case .cellular3G: 0
            case .cellular4G: 1
            case .cellular5G, .wifi: 2
            }
        }
    }
}

/// One step of a scripted scroll.
public enum ScrollStep: Sendable, Equatable {
    case watch(milliseconds: Int)
    case swipe
    case swipeBack
    case waitForPage
    case memoryWarning
    case lowBattery(Bool)
}
