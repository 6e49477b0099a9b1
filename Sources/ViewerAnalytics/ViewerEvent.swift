/// One event a player sends to `POST /v1/events`. Sessions are anonymous: a random id the server issued to a browser
/// tab (in its session token), nothing else about the viewer.
package struct ViewerEvent: Sendable, Equatable {
    package var session: String
    /// The video the event is about; an error may have none.
    package var video: String?
    package var kind: Kind

    package enum Kind: Sendable, Equatable {
        /// Playback began: the rendition played first and the time from arriving at the item to its first frame.
        case viewStart(rendition: String, startupMilliseconds: Int)
        case stall(milliseconds: Int)
        /// Where playback is, and how much of the video has been watched so far in this view.
        case progress(positionSeconds: Double, watchedSeconds: Double)
        case viewEnd(watchedSeconds: Double, completed: Bool, bytes: Int)
        /// One media segment's fetch: a throughput sample.
        case segment(bytes: Int, milliseconds: Int)
        case error(message: String)
    }

    package init(session: String, video: String?, kind: Kind) {
        self.session = session
        self.video = video
        self.kind = kind
    }
}
