/// Real viewing sessions rebuilt from stored viewer events, for the simulator (`reel simulate --replay` and
/// `--network-from`): each tab's views in the order it watched them, with what the page measured, and its segment
/// fetches in order as throughput samples.
package struct ViewerSession: Sendable, Equatable {
    package struct View: Sendable, Equatable {
        package var video: String
        package var startupMilliseconds: Int
        package var stalls = 0
        package var stallMilliseconds = 0
        /// Seconds played (from its end, or its last progress when the end never came).
        package var watchedSeconds = 0.0
        package var completed = false
        /// Whether its `view_end` arrived.
        package var ended = false

        package init(video: String, startupMilliseconds: Int) {
            self.video = video
            self.startupMilliseconds = startupMilliseconds
        }

        /// How long the viewer stayed on the item: startup, playing and stalled, in ms.
        package var dwellMilliseconds: Int {
            startupMilliseconds + Int((watchedSeconds * 1000).rounded()) + stallMilliseconds
        }
    }

    /// One segment fetch: its bytes and how long it took.
    package struct Sample: Sendable, Equatable {
        package var bytes: Int
        package var milliseconds: Int

        package init(bytes: Int, milliseconds: Int) {
            self.bytes = bytes
            self.milliseconds = milliseconds
        }

        package var kbps: Double { Double(bytes) * 8 / Double(max(1, milliseconds)) }
    }

    package var id: String
    package var views: [View] = []
    package var samples: [Sample] = []

    package init(id: String) { self.id = id }
}

package enum ViewerSessions {
    /// The sessions in `events` (in the order they were stored), in the order each first appeared. A tab watches one
    /// video at a time: a `view_start` closes the view before it. A stall outside a view is not counted; a view
    /// that never sent its end keeps its last progress.
    package static func build(_ events: some Sequence<ViewerEvent>) -> [ViewerSession] {
        var sessions: [ViewerSession] = []
        var index: [String: Int] = [:]
        var open: [String: Bool] = [:]  // session -> its last view is still open
        for event in events {
            let position: Int
            if let known = index[event.session] {
                position = known
            } else {
                position = sessions.count
                index[event.session] = position
                sessions.append(ViewerSession(id: event.session))
            }
            let isOpen = open[event.session] ?? false
            let matches = isOpen && sessions[position].views.last?.video == event.video
            switch event.kind {
            case let .viewStart(_, startup):
                guard let video = event.video else { continue }
                sessions[position].views.append(ViewerSession.View(video: video, startupMilliseconds: startup))
                open[event.session] = true
            case let .stall(milliseconds):
                guard matches else { continue }
                sessions[position].views[sessions[position].views.count - 1].stalls += 1
                sessions[position].views[sessions[position].views.count - 1].stallMilliseconds += milliseconds
            case let .progress(_, watched):
                guard matches else { continue }
                let last = sessions[position].views.count - 1
                sessions[position].views[last].watchedSeconds = max(
                    sessions[position].views[last].watchedSeconds, watched)
            case let .viewEnd(watched, completed, _):
                guard matches else { continue }
                let last = sessions[position].views.count - 1
                sessions[position].views[last].watchedSeconds = max(
                    sessions[position].views[last].watchedSeconds, watched)
                sessions[position].views[last].completed = completed
                sessions[position].views[last].ended = true
                open[event.session] = false
            case let .segment(bytes, milliseconds):
                sessions[position].samples.append(ViewerSession.Sample(bytes: bytes, milliseconds: milliseconds))
            case .error:
                break
            }
        }
        return sessions
    }
}
