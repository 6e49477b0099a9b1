/// A policy's answer for one step: fetch the next chunk of one video, or let playback run without the network.
public enum MMGCDecision: Sendable, Equatable {
    case download(video: Int, rung: Int)
    case sleep(milliseconds: Int)
}

/// A policy for `--mode mmgc`: called before every step of the challenge's sequential downloader. A policy may
/// keep state between steps; each session starts from the value it was given.
public protocol MMGCPolicy: Sendable {
    var name: String { get }
    mutating func decide(_ view: MMGCView) -> MMGCDecision
}
