/// What a player is doing. Only the current item's player ever plays; a video that ends loops.
public enum PlayerState: String, Sendable, Equatable {
    case idle, loading, ready, playing, paused, buffering
}

/// One line of the simulator's event log. Same inputs → the same log, byte for byte.
public struct ClientEvent: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case playerCreated(player: Int)
        case playerAssigned(player: Int, item: Int)
        case downloadStarted(item: Int, chunk: Int, rung: Int)
        case downloadFinished(item: Int, chunk: Int, rung: Int, bytes: Int)
        case downloadCancelled(item: Int, chunk: Int, bytesReceived: Int)
        case swiped(from: Int, to: Int)
        case playbackStarted(item: Int, startupMilliseconds: Int)
        case stallStarted(item: Int)
        case stallEnded(item: Int, milliseconds: Int)
        case pageRequested(page: Int)
        case pageLoaded(page: Int, items: Int)
        case buffersDropped(items: [Int], bytes: Int)
        case lowBattery(Bool)
        case playerState(player: Int, item: Int?, state: PlayerState)
        case looped(item: Int)
    }

    public let time: Int
    public let kind: Kind

    public var description: String { "\(time) \(kind)" }
}
